// `assess reattempt` against the sandbox: all six rows of the spec's reattempt table.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { runInProcess as runAssess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => s?.close());

const run = (args: string[]) => runAssess(args, { env: s.env });
const WINDOW = ['--start', '2030-06-01', '--end', '2030-06-08T18:00:00Z', '--tz', '21'];
type Inv = { status: string; accessStart: string; accessEnd: string; timeZoneId: number; reattemptOf: number | null };
/** Requests 1 and 2 answered, the 3rd answered 500 after it was carried out, the 4th answered. */
const FIRST_TRY_FAILS = '500=0.5,after=1,seed=8';
const invitation = (id: number | string) => s.control<Inv>('GET', `/invitations/${id}`);

async function invitationIn(state: string): Promise<number> {
  const email = `reattempt.${state.replace(' ', '-').toLowerCase()}.${Math.random().toString(36).slice(2)}@example.com`;
  const res = await fetch(`${s.sb.baseUrl}/v3/tests/1001/invite`, {
    method: 'POST',
    headers: { 'X-API-KEY': s.env.ASSESS_API_KEY!, 'content-type': 'application/json' },
    body: JSON.stringify({ email, name: 'Reattempt Candidate' }),
  });
  const id = ((await res.json()) as { testInvitationId: number }).testInvitationId;
  const to = {
    Cancelled: null,
    Expired: 'expire',
    Complete: 'complete',
    'Test Left': 'leave',
    'In Progress': 'start',
    Pending: null,
  }[state];
  if (state === 'Cancelled')
    await fetch(`${s.sb.baseUrl}/v3/invitations/${id}/cancel`, {
      method: 'POST',
      headers: { 'X-API-KEY': s.env.ASSESS_API_KEY!, 'content-type': 'application/json' },
      body: '{}',
    });
  else if (to) await s.control('POST', `/invitations/${id}/simulate`, { to });
  expect((await invitation(id)).status).toBe(state);
  return id;
}

describe('assess reattempt (spec state table)', () => {
  it.each([['Pending'], ['Cancelled'], ['Expired']])(
    '%s: the same invitation, Pending with the new access window',
    async (state) => {
      const id = await invitationIn(state);
      const r = await run(['reattempt', String(id), ...WINDOW, '--json']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).testInvitationId).toBe(id);
      expect(r.stderr).toBe(
        (state === 'Pending'
          ? `Invitation ${id} was not taken yet: it is open again in the new access window (no new invitation).\n`
          : `warning: invitation ${id} was ${state}: the reattempt reopened it (Pending again, its access window ` +
            'replaced); the candidate takes the test at the same URL\n') +
          'No e-mail sent — share the URL, or use --send-email.\n',
      );
      expect(JSON.parse(r.stdout).emailed).toBe(false);
      expect(await invitation(id)).toMatchObject({
        status: 'Pending',
        accessStart: '2030-06-01T00:00:00Z',
        accessEnd: '2030-06-08T18:00:00Z',
        timeZoneId: 21,
      });
    },
  );

  it('a cancelled latest reattempt is reopened, and the command says so', async () => {
    const id = await invitationIn('Complete');
    const first = JSON.parse((await run(['reattempt', String(id), ...WINDOW, '--json'])).stdout).testInvitationId;
    expect((await run(['attempts', 'cancel', String(first), '--yes'])).code).toBe(0);
    const r = await run(['reattempt', String(id), ...WINDOW, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).testInvitationId).toBe(first);
    expect(r.stderr).toContain(`Invitation ${first} is the reattempt, open in the new access window`);
    expect(r.stderr).toContain(`warning: invitation ${first} was Cancelled: the reattempt reopened it`);
  });

  it.each([['Complete'], ['Test Left']])('%s: a NEW invitation, and the command says so', async (state) => {
    const id = await invitationIn(state);
    const r = await run(['reattempt', String(id), ...WINDOW, '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.testInvitationId).not.toBe(id);
    expect(out.testUrl).toMatch(/^http/);
    // what the answer says, the same for a repeat (below): no "made now, or …"
    const said =
      `Invitation ${out.testInvitationId} is the reattempt, open in the new access window; invitation ` +
      `${id} keeps its result.`;
    expect(r.stderr).toContain(said);
    expect(r.stderr).not.toMatch(/made now, or/);
    expect(await invitation(out.testInvitationId)).toMatchObject({
      status: 'Pending',
      reattemptOf: id,
      timeZoneId: 21,
    });
    expect((await invitation(id)).status).toBe(state);

    // Before the candidate takes it, asking again returns that latest reattempt.
    const again = await run(['reattempt', String(id), ...WINDOW, '--json']);
    expect(JSON.parse(again.stdout).testInvitationId).toBe(out.testInvitationId);
    expect(again.stderr).toContain(said);
  });

  it('a 500 after the reattempt was made: repeated (the spec returns the same one) → exit 0, one reattempt', async () => {
    const id = await invitationIn('Complete');
    await s.control('DELETE', '/requests');
    // seed 8: the two lists read first (cancelled, expired) are answered; the reattempt's first try
    // is carried out and answered 500; the repeat is answered
    await s.control('POST', '/faults', { spec: FIRST_TRY_FAILS });
    onTestFinished(() => s.control('DELETE', '/faults'));
    const r = await run(['reattempt', String(id), ...WINDOW, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const tries = (await s.requests()).filter((q) => q.path === `/v3/invitations/${id}/reattempt`);
    expect(tries.map((q) => q.status)).toEqual([500, 200]);
    const made = (
      await s.control<{ invitations: Array<Inv & { testInvitationId: number }> }>('GET', '/invitations')
    ).invitations.filter((i) => i.reattemptOf === id);
    expect(made.map((i) => i.testInvitationId)).toEqual([JSON.parse(r.stdout).testInvitationId]);
  });

  it('--send-email: a 500 is not repeated (a repeat could e-mail again); the hint says a repeat is safe for the invitation', async () => {
    const id = await invitationIn('Complete');
    await s.control('DELETE', '/requests');
    await s.control('POST', '/faults', { spec: FIRST_TRY_FAILS });
    onTestFinished(() => s.control('DELETE', '/faults'));
    const r = await run(['reattempt', String(id), ...WINDOW, '--send-email']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /may have made the reattempt anyway; the same command again returns that reattempt, never a second/,
    );
    expect((await s.requests()).filter((q) => q.path === `/v3/invitations/${id}/reattempt`)).toHaveLength(1);
  });

  it('In Progress: exit 1 with a clear message, nothing changed', async () => {
    const id = await invitationIn('In Progress');
    const r = await run(['reattempt', String(id), ...WINDOW]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`reattempt refused: invitation ${id}`);
    expect(r.stderr).toMatch(/is In Progress; run this again once the candidate has finished/);
    expect((await invitation(id)).status).toBe('In Progress');
  });
});

describe('assess reattempt output and body', () => {
  it('TSV, --ndjson and --csv; the body is PascalCase per the spec', async () => {
    const id = await invitationIn('Pending');
    const tsv = await run([
      'reattempt',
      String(id),
      ...WINDOW,
      '--callback-url',
      'https://example.com/cb',
      '--redirect-url',
      'https://example.com/bye',
      '--send-email',
      '--hide-instructions',
    ]);
    expect(tsv.code).toBe(0);
    expect(tsv.stderr).toContain('The service e-mails the candidate the invitation.\n');
    expect(tsv.stdout).toMatch(
      new RegExp(
        `^testInvitationId\\t${id}\\ntestUrl\\thttp\\S+\\ncallbackUrlRegistered\\thttps://example.com/cb\\nredirectUrlRegistered\\thttps://example.com/bye\\n$`,
      ),
    );
    const sent = (await s.requests()).filter((q) => q.path.startsWith('/v3/')).at(-1)!;
    expect(sent.path).toBe(`/v3/invitations/${id}/reattempt`);
    expect(sent.body).toEqual({
      StartDateTime: '2030-06-01T00:00:00Z',
      EndDateTime: '2030-06-08T18:00:00Z',
      TimeZoneId: 21,
      CallbackUrl: 'https://example.com/cb',
      RedirectUrl: 'https://example.com/bye',
      hideInstruction: 1,
      sendEmail: 'yes',
    });
    const nd = await run(['reattempt', String(id), ...WINDOW, '--ndjson']);
    expect(JSON.parse(nd.stdout).testInvitationId).toBe(id);
    const csv = await run(['reattempt', String(id), ...WINDOW, '--csv']);
    expect(csv.stdout.split('\r\n')[0]).toBe('testInvitationId,testUrl,callbackUrlRegistered,redirectUrlRegistered');
  });

  it("account B's invitation → exit 4", async () => {
    const r = await run(['reattempt', '900008', ...WINDOW]);
    expect(r.code).toBe(4);
  });

  it.each([
    [['x12', ...WINDOW], '<invitationId>'],
    [['900004', '--start', '2030-06-01', '--end', '2030-06-08'], '--tz'],
    [['900004', '--start', '2030-06-01', '--tz', '3'], '--end'],
    [['900004', '--start', '2030-06-08', '--end', '2030-06-01', '--tz', '3'], '--end'],
    [['900004', '--start', '2030-06-01', '--end', '2030-06-08', '--tz', '1.5'], '--tz'],
    [['900004', ...WINDOW, '--callback-url', 'example.com'], '--callback-url'],
  ])('bad input %j → exit 2 naming %s, nothing sent', async (args, flag) => {
    const before = (await s.requests()).length;
    const r = await run(['reattempt', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(flag);
    expect((await s.requests()).length).toBe(before);
  });
});
