// `assess attempts list|cancel` against the sandbox.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { runInProcess as runAssess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => s?.close());

const run = (args: string[]) => runAssess(args, { env: s.env });
const lastServiceRequest = async () => (await s.requests()).filter((r) => r.path.startsWith('/v3/')).at(-1)!;
const window = ['--from', '30d', '--to', '+1d'];

async function freshInvitation(email: string): Promise<number> {
  const res = await fetch(`${s.sb.baseUrl}/v3/tests/1001/invite`, {
    method: 'POST',
    headers: { 'X-API-KEY': s.env.ASSESS_API_KEY!, 'content-type': 'application/json' },
    body: JSON.stringify({ email, name: 'Attempt Candidate' }),
  });
  return ((await res.json()) as { testInvitationId: number }).testInvitationId;
}

describe('assess attempts list', () => {
  it('completed: Complete, Test Left and Terminated of this account, as TSV rows', async () => {
    const r = await run(['attempts', 'list', '--state', 'completed', ...window]);
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.map((x) => x[0])).toEqual(expect.arrayContaining(['900001', '900002', '900003']));
    expect(rows.map((x) => x[0])).not.toContain('900008'); // account B's
    expect(new Set(rows.map((x) => x[5]))).toEqual(new Set(['Complete', 'Test Left', 'Terminated']));
    const sent = await lastServiceRequest();
    expect(sent.path).toBe('/v3/candidates/testattempts?state=completed');
    const body = sent.body as { StartDateTime: string; EndDateTime: string };
    expect(body.StartDateTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(body.EndDateTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('--json (array with the service field names), --json fields, --ndjson, --csv', async () => {
    const base = ['attempts', 'list', '--state', 'completed', ...window];
    const json = JSON.parse((await run([...base, '--json'])).stdout);
    expect(Array.isArray(json)).toBe(true);
    expect(json.find((a: { testInvitationId: number }) => a.testInvitationId === 900001)).toEqual({
      testInvitationId: 900001,
      testId: 1001,
      name: 'Alice Archer',
      email: 'alice@example.com',
      invitationtype: 'api',
      testStatus: 'Complete',
    });
    const picked = JSON.parse((await run([...base, '--json', 'testInvitationId,testStatus'])).stdout);
    expect(Object.keys(picked[0])).toEqual(['testInvitationId', 'testStatus']);
    const nd = (await run([...base, '--ndjson'])).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(nd).toHaveLength(json.length);
    const csv = (await run([...base, '--csv'])).stdout.split('\r\n');
    expect(csv[0]).toBe('testInvitationId,testId,name,email,invitationtype,testStatus');
    expect(csv).toContain('900001,1001,Alice Archer,alice@example.com,api,Complete');
  });

  it('an empty window: --json prints [] and exits 0; TSV prints nothing', async () => {
    const args = ['attempts', 'list', '--state', 'expired', '--from', '2001-01-01', '--to', '2001-01-02'];
    const json = await run([...args, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([]);
    const tsv = await run(args);
    expect(tsv.code).toBe(0);
    expect(tsv.stdout).toBe('');
  });

  it('cancelled and expired states list their invitations', async () => {
    const cancelled = JSON.parse((await run(['attempts', 'list', '--state', 'cancelled', ...window, '--json'])).stdout);
    expect(cancelled.map((a: { testInvitationId: number }) => a.testInvitationId)).toContain(900006);
    const expired = JSON.parse((await run(['attempts', 'list', '--state', 'expired', ...window, '--json'])).stdout);
    expect(expired.map((a: { testInvitationId: number }) => a.testInvitationId)).toContain(900007);
  });

  it('--state and --to default to completed and now (as report export); every missing flag is named at once', async () => {
    const r = await run(['attempts', 'list', '--from', '30d', '--json', 'testInvitationId']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).map((a: { testInvitationId: number }) => a.testInvitationId)).toEqual(
      expect.arrayContaining([900001, 900002, 900003]),
    );
    const all = await run(['reattempt', '900001']);
    expect(all.code).toBe(2);
    expect(all.stderr).toMatch(/--start: is required.*; --end: is required.*; --tz: is required/);
  });

  it.each([
    [['--state', 'done', ...window], '--state'],
    [['--state', 'completed', '--to', 'now'], '--from'],
    [['--state', 'completed', '--from', 'last week', '--to', 'now'], '--from'],
    [['--state', 'completed', '--from', '2026-03-10', '--to', '2026-03-01'], '--to'],
    [['--state', 'completed', '--from', '2026-02-30', '--to', 'now'], '--from'],
  ])('bad input %j → exit 2 naming %s, nothing sent', async (flags, flag) => {
    const before = (await s.requests()).length;
    const r = await run(['attempts', 'list', ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(flag);
    expect((await s.requests()).length).toBe(before);
  });
});

describe('assess attempts cancel', () => {
  it('--yes cancels and prints the invitation and its status; it then lists as cancelled', async () => {
    const id = await freshInvitation('to.cancel@example.com');
    const r = await run(['attempts', 'cancel', String(id), '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`testInvitationId\t${id}\nstatus\tCancelled\n`);
    expect(r.stderr).toContain(`Cancelled invitation ${id}`);
    const list = JSON.parse((await run(['attempts', 'list', '--state', 'cancelled', ...window, '--json'])).stdout);
    expect(list.map((a: { testInvitationId: number }) => a.testInvitationId)).toContain(id);
  });

  it('--json prints the service object', async () => {
    const id = await freshInvitation('to.cancel.json@example.com');
    const r = await run(['attempts', 'cancel', String(id), '--yes', '--json']);
    expect(JSON.parse(r.stdout)).toEqual({ testInvitationId: id, status: 'Cancelled' });
  });

  it('without a terminal and without --yes: exit 2 asking for --yes, nothing sent', async () => {
    const id = await freshInvitation('not.confirmed@example.com');
    const before = (await s.requests()).length;
    const r = await run(['attempts', 'cancel', String(id)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect((await s.requests()).length).toBe(before);
    expect((await s.control<{ status: string }>('GET', `/invitations/${id}`)).status).toBe('Pending');
  });

  it("account B's invitation → exit 4", async () => {
    const r = await run(['attempts', 'cancel', '900008', '--yes']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/HTTP 401/);
  });

  it('a Complete invitation cannot be cancelled → the service refuses → exit 1', async () => {
    const r = await run(['attempts', 'cancel', '900001', '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /invitation 900001 cannot be cancelled: it is Complete \(only a Pending invitation can be cancelled\)/,
    );
    expect(r.stderr).toMatch(/assess reattempt 900001/);
  });

  it('a non-numeric id → exit 2 naming <invitationId>, nothing sent', async () => {
    const before = (await s.requests()).length;
    const r = await run(['attempts', 'cancel', '12ab', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('<invitationId>');
    expect((await s.requests()).length).toBe(before);
  });

  describe('when an earlier try of this run may have cancelled it', () => {
    it('a 502 after the cancel, the repeat refused, the read-back Cancelled → exit 0, confirmed (not "nothing changed")', async () => {
      const id = await freshInvitation('lost.cancel@example.com');
      await s.control('DELETE', '/requests');
      // the 1st cancel is carried out and answered 502; the repeat is refused (400); the client's
      // own read-back meets four 502s; the command's read of the report then succeeds
      await s.control('POST', '/faults', { spec: '502=0.5,after=1,seed=3' });
      onTestFinished(() => s.control('DELETE', '/faults'));
      const r = await run(['attempts', 'cancel', String(id), '--yes', '--json']);
      expect(r.code, r.stderr).toBe(0);
      // the same object as a plain cancel prints: "confirmed" is said on stderr, not added to it
      expect(JSON.parse(r.stdout)).toEqual({ testInvitationId: id, status: 'Cancelled' });
      expect(r.stderr).toMatch(/read back, the report shows it cancelled \(confirmed\)/);
      expect(r.stderr).not.toMatch(/nothing changed/);
      const cancels = (await s.requests()).filter((q) => q.path === `/v3/invitations/${id}/cancel`);
      expect(cancels.map((q) => q.status)).toEqual([502, 400]);
      const reads = (await s.requests()).filter((q) => q.path.startsWith(`/v3/reports/${id}`));
      expect(reads.map((q) => q.status)).toEqual([502, 502, 502, 502, 200]);
      expect((await s.control<{ status: string }>('GET', `/invitations/${id}`)).status).toBe('Cancelled');
    });

    it('a 500 after the cancel and every read-back lost too: the hint says it may be cancelled and how to check, not "retry later"', async () => {
      const id = await freshInvitation('lost.readback@example.com');
      await s.control('DELETE', '/requests');
      // seed 7: the cancel is carried out and answered 500; the four reads of the report meet a
      // reset, two 502s and a reset
      await s.control('POST', '/faults', { spec: '5xx=0.5,reset=0.2,after=1,seed=7' });
      onTestFinished(() => s.control('DELETE', '/faults'));
      const r = await run(['attempts', 'cancel', String(id), '--yes', '--json']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        `it may have been carried out: the answer was lost (HTTP 500) and reading it back failed too; check with ` +
          `\`assess report ${id} --json status\` before repeating it`,
      );
      expect(r.stderr).not.toMatch(/retry later/);
      expect((await s.control<{ status: string }>('GET', `/invitations/${id}`)).status).toBe('Cancelled');
    });

    it('refused on the first try (nothing of this run reached it before): still "already cancelled; nothing changed", exit 1', async () => {
      const id = await freshInvitation('cancelled.before@example.com');
      expect((await run(['attempts', 'cancel', String(id), '--yes'])).code).toBe(0);
      const r = await run(['attempts', 'cancel', String(id), '--yes']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`invitation ${id} is already cancelled; nothing changed`));
      expect(r.stderr).not.toMatch(/confirmed/);
    });
  });
});
