// `assess invite` against the sandbox: every output format, the invite state table seen
// through the CLI, --link (operation 10), and bad input stopped before any request.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { journalItems } from '../helpers/bulk.js';
import { storeOf } from '../helpers/store.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as runAssess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => s?.close());

const run = (args: string[]) => runAssess(args, { env: s.env });
type Inv = {
  testInvitationId: number;
  status: string;
  accessStart: string;
  accessEnd: string;
  timeZoneId: number;
  stakeholderEmails: string | null;
  name: string;
  email: string;
};
const invitation = (id: number | string) => s.control<Inv>('GET', `/invitations/${id}`);
const serviceRequests = async () => (await s.requests()).filter((r) => r.path.startsWith('/v3/'));

/** A fresh Pending invitation on test 1001's default link, made directly (not through the CLI). */
async function freshInvitation(email: string): Promise<number> {
  const res = await fetch(`${s.sb.baseUrl}/v3/tests/1001/invite`, {
    method: 'POST',
    headers: { 'X-API-KEY': s.env.ASSESS_API_KEY!, 'content-type': 'application/json' },
    body: JSON.stringify({ email, name: 'Fresh Candidate' }),
  });
  return ((await res.json()) as { testInvitationId: number }).testInvitationId;
}
async function cancel(id: number) {
  await fetch(`${s.sb.baseUrl}/v3/invitations/${id}/cancel`, {
    method: 'POST',
    headers: { 'X-API-KEY': s.env.ASSESS_API_KEY!, 'content-type': 'application/json' },
    body: '{}',
  });
}
const simulate = (id: number, to: string) => s.control('POST', `/invitations/${id}/simulate`, { to });

describe('assess invite', () => {
  it('invites a new candidate: TSV key/value rows, Pending, no "existing" notice', async () => {
    const r = await run(['invite', '1001', '--email', 'new.one@example.com', '--name', 'New One']);
    expect(r.code).toBe(0);
    const lines = Object.fromEntries(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')),
    );
    expect(lines.testInvitationId).toMatch(/^\d+$/);
    expect(lines.testUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(lines.status).toBe('Pending');
    // no "existing" notice: one line, saying that nobody was e-mailed
    expect(r.stderr).toBe('No e-mail sent — share the URL, or use --send-email.\n');
    const sent = (await serviceRequests()).at(-1)!;
    expect(sent).toMatchObject({ method: 'POST', path: '/v3/tests/1001/invite', status: 200 });
    expect(sent.body).toEqual({ email: 'new.one@example.com', name: 'New One', sendEmail: 'no' });
  });

  it('--json prints the service object; --json fields keeps those; --ndjson one line; --csv header + row', async () => {
    const args = ['invite', '1001', '--email', 'formats@example.com', '--name', 'Format Tester'];
    const json = await run([...args, '--json']);
    expect(json.stderr).toBe('No e-mail sent — share the URL, or use --send-email.\n');
    expect(json.code).toBe(0);
    const obj = JSON.parse(json.stdout);
    expect(Object.keys(obj).sort()).toEqual(['emailed', 'status', 'testInvitationId', 'testUrl']);
    expect(obj.emailed).toBe(false);
    expect(typeof obj.testInvitationId).toBe('number');

    const picked = await run([...args, '--json', 'testInvitationId,testUrl']);
    expect(JSON.parse(picked.stdout)).toEqual({ testInvitationId: obj.testInvitationId, testUrl: obj.testUrl });

    const nd = await run([...args, '--ndjson']);
    expect(nd.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(nd.stdout).testInvitationId).toBe(obj.testInvitationId);

    const csv = await run([...args, '--csv']);
    expect(csv.stdout).toBe(`testInvitationId,testUrl,status\r\n${obj.testInvitationId},${obj.testUrl},Pending\r\n`);

    const bad = await run([...args, '--json', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown field 'nope'/);
  });

  it("sends every body field with the spec samples' spellings", async () => {
    const r = await run([
      'invite',
      '1001',
      '--email',
      'all.flags@example.com',
      '--name',
      'All Flags',
      '--callback-url',
      'https://example.com/hook',
      '--redirect-url',
      'https://example.com/done',
      '--send-email',
      '--stakeholders',
      'lead@example.com,hr@example.com',
      '--start',
      '2030-01-01',
      '--end',
      '2030-01-08T12:00:00Z',
      '--tz',
      '35',
      '--proctoring',
      'video',
      '--image-proctoring',
      '1',
      '--hide-instructions',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const sent = (await serviceRequests()).at(-1)!;
    expect(sent.body).toEqual({
      email: 'all.flags@example.com',
      name: 'All Flags',
      callbackURL: 'https://example.com/hook',
      redirectURL: 'https://example.com/done',
      hideInstruction: 1,
      sendEmail: 'yes',
      imageProctoring: 1,
      stakeholderEmails: 'lead@example.com,hr@example.com',
      startDateTime: '2030-01-01T00:00:00Z',
      endDateTime: '2030-01-08T12:00:00Z',
      timeZoneId: 35,
      ProctoringMode: 'video',
    });
    const inv = await invitation(JSON.parse(r.stdout).testInvitationId);
    expect(inv).toMatchObject({
      accessStart: '2030-01-01T00:00:00Z',
      accessEnd: '2030-01-08T12:00:00Z',
      timeZoneId: 35,
    });
  });

  it('--no-stakeholders sends disable; --no-mandatory-fields needs no e-mail or name', async () => {
    const a = await run([
      'invite',
      '1001',
      '--email',
      'quiet@example.com',
      '--name',
      'Quiet',
      '--no-stakeholders',
      '--json',
    ]);
    expect(a.code).toBe(0);
    expect((await serviceRequests()).at(-1)!.body).toMatchObject({ stakeholderEmails: 'disable' });
    expect((await invitation(JSON.parse(a.stdout).testInvitationId)).stakeholderEmails).toBe('disable');

    const b = await run(['invite', '1001', '--no-mandatory-fields', '--json']);
    expect(b.code).toBe(0);
    expect((await serviceRequests()).at(-1)!.body).toEqual({ disableMandatoryFields: 1, sendEmail: 'no' });
    const inv = await invitation(JSON.parse(b.stdout).testInvitationId);
    expect(inv.email).toMatch(/@/);
  });

  it('--send-email: the one line names the address the service e-mails; emailed true', async () => {
    const r = await run([
      'invite',
      '1001',
      '--email',
      'mailed@example.com',
      '--name',
      'Mailed',
      '--send-email',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ emailed: true, status: 'Pending' });
    expect(r.stderr).toBe('The service e-mails mailed@example.com the invitation.\n');
  });

  it('--link on a terminal: no empty Status row when the answer has none (operation 10 answers without)', async () => {
    const args = ['invite', '1001', '--link', '5002', '--email', 'tty.link@example.com', '--name', 'Tty Link'];
    const r = await runAssess(args, { env: s.env, tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Invitation +\d+$/m);
    expect(r.stdout).toMatch(/^URL +http:/m);
    expect(r.stdout).not.toMatch(/Status/);
  });

  it('--link invites through the chosen link (operation 10)', async () => {
    const r = await run([
      'invite',
      '1001',
      '--link',
      '5002',
      '--email',
      'linked@example.com',
      '--name',
      'Linked',
      '--csv',
    ]);
    expect(r.code).toBe(0);
    const [header, row] = r.stdout.trim().split('\r\n');
    expect(header).toBe('testInvitationId,testUrl,status');
    expect(row).toMatch(/^\d+,http:\/\/127\.0\.0\.1:\d+\/\S+,/);
    const sent = (await serviceRequests()).at(-1)!;
    expect(sent).toMatchObject({ path: '/v3/tests/1001/testlinks/5002/invite', status: 201 });
    expect(sent.body).toEqual({ email: 'linked@example.com', name: 'Linked', sendEmail: 'no' });
  });

  describe('on an existing invitation (spec state table)', () => {
    const again = (email: string, extra: string[] = []) =>
      run(['invite', '1001', '--email', email, '--name', 'Again', '--json', ...extra]);

    it('Pending: the same invitation, access time and time zone replaced, no notice', async () => {
      const id = await freshInvitation('pending.row@example.com');
      const r = await again('pending.row@example.com', ['--start', '2031-05-01', '--end', '2031-05-09', '--tz', '44']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ testInvitationId: id, status: 'Pending' });
      expect(await invitation(id)).toMatchObject({
        status: 'Pending',
        accessStart: '2031-05-01T00:00:00Z',
        timeZoneId: 44,
      });
      expect(r.stderr).toBe('No e-mail sent — share the URL, or use --send-email.\n');
    });

    it.each([['Cancelled'], ['Expired']])('%s: the same invitation, back to Pending, and it says so', async (state) => {
      const email = `${state.toLowerCase()}.row@example.com`;
      const id = await freshInvitation(email);
      if (state === 'Cancelled') await cancel(id);
      else await simulate(id, 'expire');
      expect((await invitation(id)).status).toBe(state);
      const r = await again(email, ['--tz', '12']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ testInvitationId: id, status: 'Pending' });
      expect(await invitation(id)).toMatchObject({ status: 'Pending', timeZoneId: 12 });
      expect(r.stderr).toContain(
        `warning: invitation ${id} was ${state}: inviting again reopened it (Pending again, its access window ` +
          `replaced)`,
      );
    });

    it.each([
      ['Complete', 'complete'],
      ['Test Left', 'leave'],
    ])('%s: the same invitation, and a clear notice that the candidate already took the test', async (state, to) => {
      const email = `${to}.row@example.com`;
      const id = await freshInvitation(email);
      await simulate(id, to);
      const r = await again(email);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ testInvitationId: id, status: state });
      expect(r.stderr).toContain(`existing invitation ${id} returned`);
      expect(r.stderr).toContain('already took this test');
      expect(r.stderr).toContain(`assess reattempt ${id}`);
      expect((await invitation(id)).status).toBe(state);
    });

    it('In Progress: the current invitation, with a notice that the candidate is taking it', async () => {
      const id = await freshInvitation('progress.row@example.com');
      await simulate(id, 'start');
      const r = await again('progress.row@example.com');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ testInvitationId: id, status: 'In Progress' });
      expect(r.stderr).toMatch(/existing invitation \d+ returned: the candidate is taking this test right now/);
    });
  });

  describe('documented errors', () => {
    it('a test of another account → exit 4 (an id this key does not know)', async () => {
      const r = await run(['invite', '2001', '--email', 'x@example.com', '--name', 'X']);
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/HTTP 403/);
      expect(r.stdout).toBe('');
    });
    it('an unknown link → exit 4', async () => {
      const r = await run(['invite', '1001', '--link', '999999', '--email', 'x@example.com', '--name', 'X']);
      expect(r.code).toBe(4);
    });
    it('an inactive link → the service refuses (400) → exit 1', async () => {
      const r = await run(['invite', '1001', '--link', '5004', '--email', 'x@example.com', '--name', 'X']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/inactive/);
    });
  });

  describe('--send-email and retries (a second e-mail only where the service may have acted)', () => {
    const faults = async (spec: string) => {
      await s.control('DELETE', '/requests'); // the log holds this test's requests only
      await s.control('POST', '/faults', { spec });
      onTestFinished(() => s.control('DELETE', '/faults'));
    };
    /** The invites sent (a refused request is logged without its body). */
    const invites = async () =>
      (await s.requests()).filter((q) => q.method === 'POST' && q.path === '/v3/tests/1001/invite');
    const emailsTo = async (email: string) =>
      (await s.control<{ emails: Array<{ to: string }> }>('GET', '/outbox')).emails.filter((e) => e.to === email);

    it('a 429 is sent again (refused on arrival, nothing e-mailed): invited and e-mailed once, exit 0', async () => {
      // the seed's draws: the two lists read first (cancelled, expired) get 429, 429, 200 each; then
      // the invite's 1st and 2nd requests are refused, the 3rd admitted
      await faults('429=0.5,retryAfter=0,seed=0');
      const r = await run([
        'invite',
        '1001',
        '--email',
        'rate.limited@example.com',
        '--name',
        'Rate Limited',
        '--send-email',
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 'Pending' });
      expect((await invites()).map((q) => q.status)).toEqual([429, 429, 200]);
      expect(await emailsTo('rate.limited@example.com')).toHaveLength(1);
    });

    it('still refused after every attempt: exit 6, one request per attempt, nothing e-mailed', async () => {
      await faults('429=1,retryAfter=0');
      const r = await run([
        'invite',
        '1001',
        '--email',
        'always.limited@example.com',
        '--name',
        'Always Limited',
        '--send-email',
      ]);
      expect(r.code).toBe(6);
      expect(r.stderr).toMatch(/still rate limited after 4 attempts/);
      expect(await invites()).toHaveLength(4);
      expect(await emailsTo('always.limited@example.com')).toHaveLength(0);
    });

    it('a 502 after the invitation was made is not sent again (it was e-mailed): one request', async () => {
      await faults('502=1,after=1');
      const r = await run([
        'invite',
        '1001',
        '--email',
        'bad.gateway@example.com',
        '--name',
        'Bad Gateway',
        '--send-email',
      ]);
      expect(r.code).not.toBe(0);
      expect(await invites()).toHaveLength(1);
      expect(await emailsTo('bad.gateway@example.com')).toHaveLength(1);
    });
  });

  describe('bad input: exit 2, the flag named, nothing sent', () => {
    it.each([
      [['--email', 'not-an-email', '--name', 'A'], '--email'],
      [['--email', 'a@example.com,b@example.com', '--name', 'A'], '--email'],
      [['--name', 'No Email'], '--email'],
      [['--email', 'a@example.com'], '--name'],
      [['--email', 'a@example.com', '--name', 'A', '--start', '2030-03-08', '--end', '2030-03-01'], '--end'],
      [['--email', 'a@example.com', '--name', 'A', '--start', 'tomorrowish', '--end', '7d'], '--start'],
      [['--email', 'a@example.com', '--name', 'A', '--tz', 'U;TC'], '--tz'],
      [['--email', 'a@example.com', '--name', 'A', '--tz', '3.5'], '--tz'],
      [
        ['--email', 'a@example.com', '--name', 'A', '--link', '5002', '--stakeholders', 'lead@example.com'],
        '--stakeholders',
      ],
      [['--email', 'a@example.com', '--name', 'A', '--link', '5002', '--no-stakeholders'], '--stakeholders'],
      [['--email', 'a@example.com', '--name', 'A', '--link', '5002', '--tz', '3'], '--tz'],
      [['--email', 'a@example.com', '--name', 'A', '--link', 'x9'], '--link'],
      [['--email', 'a@example.com', '--name', 'A', '--stakeholders', 'lead@example.com,oops'], '--stakeholders'],
      [['--email', 'a@example.com', '--name', 'A', '--proctoring', 'audio'], '--proctoring'],
      [['--email', 'a@example.com', '--name', 'A', '--image-proctoring', 'yes'], '--image-proctoring'],
      [['--email', 'a@example.com', '--name', 'A', '--callback-url', 'not a url'], '--callback-url'],
    ])('%j → %s', async (flags, flag) => {
      const before = (await s.requests()).length;
      const r = await run(['invite', '1001', ...flags]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(flag);
      expect(r.stdout).toBe('');
      expect((await s.requests()).length).toBe(before);
    });

    it('a non-numeric test id names <testId>', async () => {
      const before = (await s.requests()).length;
      const r = await run(['invite', '10O1', '--email', 'a@example.com', '--name', 'A']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('<testId>');
      expect((await s.requests()).length).toBe(before);
    });
  });
});

describe('bulk input spelling and the JSON summary', () => {
  it('--from-csv FILE --json: the run, then its summary as JSON on stdout', async () => {
    const work = tempDir('assess-fromcsv-');
    onTestFinished(() => work.cleanup());
    const file = join(work.dir, 'c.csv');
    writeFileSync(file, 'email,name\nfc1@example.com,Ef Cee\nfc2@example.com,Ef Two\n');
    const r = await run(['invite', '1001', '--from-csv', file, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ done: 2, skipped: 0, failed: 0, interrupted: false });
    // the old spelling still works, with a note (and --csv then is not an output format)
    writeFileSync(file, 'email,name\nfc3@example.com,Ef Three\n');
    const old = await run(['invite', '1001', '--csv', file]);
    expect(old.code, old.stderr).toBe(0);
    expect(old.stderr).toMatch(/note: --csv .* is read as --from-csv/);
  });

  it('says whether the service e-mails the candidates, counts a reopened invitation apart, and a re-run has nothing to do', async () => {
    const work = tempDir('assess-bulk-words-');
    onTestFinished(() => work.cleanup());
    // the journal is in the profile's store: every run of this test has the same config dir
    const run = (args: string[]) => runAssess(args, { env: s.env, configDir: work.dir });
    const closed = await freshInvitation('bw.closed@example.com');
    await cancel(closed);
    const file = join(work.dir, 'words.csv');
    writeFileSync(file, 'email,name\nbw1@example.com,Bee One\nbw.closed@example.com,Bee Closed\n');
    const r = await run(['invite', '1001', '--from-csv', file, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ done: 2, emailed: false });
    expect(r.stderr).toContain(
      `No e-mail sent — share the URLs (testUrl in ${file}.results.ndjson), or use --send-email.`,
    );
    expect(r.stderr).toMatch(
      /Invitations from .*words\.csv: 1 invited, 1 reopened \(they were cancelled or expired\) in /,
    );
    const results = readFileSync(`${file}.results.ndjson`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(results.map((l) => [l.outcome, l.emailed, l.reopened])).toEqual([
      ['invited', false, undefined],
      ['reopened', false, 'Cancelled'],
    ]);
    const again = await run(['invite', '1001', '--from-csv', file]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/: 2 already invited \(earlier run\), nothing to do\. Results: /);
    expect(again.stderr).not.toMatch(/e-mail/);

    const mailed = join(work.dir, 'mailed.csv');
    writeFileSync(mailed, 'email,name\nbw2@example.com,Bee Two\n');
    const m = await run(['invite', '1001', '--from-csv', mailed, '--send-email', '--json', 'emailed,done']);
    expect(m.code, m.stderr).toBe(0);
    expect(JSON.parse(m.stdout)).toEqual({ emailed: true, done: 1 });
    expect(m.stderr).toContain('The service e-mails each invited candidate the invitation.');
  });

  it('a run stopped early (a test of another account): every row sent has its line, the summary counts them and --json prints it', async () => {
    const work = tempDir('assess-fromcsv-stop-');
    onTestFinished(() => work.cleanup());
    const file = join(work.dir, 'f50.csv');
    writeFileSync(
      file,
      `email,name\n${Array.from({ length: 50 }, (_, i) => `stop${i}@example.com,Stop ${i}\n`).join('')}`,
    );
    const sentBefore = (await serviceRequests()).filter((q) => q.path === '/v3/tests/2001/invite').length;
    const r = await runAssess(['invite', '2001', '--from-csv', file, '--json'], { env: s.env, configDir: work.dir });
    expect(r.code, r.stderr).toBe(4);
    const sent = (await serviceRequests()).filter((q) => q.path === '/v3/tests/2001/invite').length - sentBefore;
    expect(sent).toBeGreaterThan(0);
    const lines = (name: string) => readFileSync(join(work.dir, name), 'utf8').trim().split('\n').filter(Boolean);
    const results = lines('f50.csv.results.ndjson').map(
      (l) => JSON.parse(l) as { outcome: string; error: { status: number } },
    );
    expect(results).toHaveLength(sent);
    expect(results.every((l) => l.outcome === 'failed' && l.error.status === 403)).toBe(true);
    const journal = journalItems(storeOf(work.dir));
    expect([journal.length, journal.every((i) => i.state === 'failed')]).toEqual([sent, true]);
    expect(r.stderr).toContain(`: ${sent} failed.`);
    expect(JSON.parse(r.stdout)).toMatchObject({ done: 0, skipped: 0, failed: sent, interrupted: false });
  });

  it("--tz with --from-csv is every row's time zone: an id or a name, dry run and sent", async () => {
    const work = tempDir('assess-fromcsv-tz-');
    onTestFinished(() => work.cleanup());
    for (const [tz, id] of [
      ['1', 1],
      ['UTC', 1],
      ['Asia/Kolkata', 35],
    ] as const) {
      const email = `tz-${tz.replace('/', '-').toLowerCase()}@example.com`;
      const file = join(work.dir, `${email}.csv`);
      writeFileSync(file, `email,name\n${email},Tee Zed\n`);
      const args = ['invite', '1001', '--from-csv', file, '--tz', tz, '--start', 'now', '--end', '7d'];
      const dry = await run([...args, '--dry-run', '--json', 'valid,invalid']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(JSON.parse(dry.stdout)).toEqual({ valid: 1, invalid: 0 });
      const r = await run([...args, '--json', 'done,failed']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/Invalid input/);
      expect(JSON.parse(r.stdout)).toEqual({ done: 1, failed: 0 });
      const sent = (await serviceRequests()).filter((q) => q.path === '/v3/tests/1001/invite').at(-1)!;
      expect(sent.body).toMatchObject({ email, timeZoneId: id });
    }
  });
});

describe('bulk outputs named through a symlink', () => {
  it('--results LINK: the file it leads to gets the results, the link stays; a link to a FIFO is refused (exit 2)', async () => {
    const work = tempDir('assess-results-link-');
    onTestFinished(() => work.cleanup());
    const csv = join(work.dir, 'c.csv');
    writeFileSync(csv, 'email,name\nlink1@example.com,Lin Kone\n');
    mkdirSync(join(work.dir, 'keep'));
    writeFileSync(join(work.dir, 'keep', 'target.ndjson'), 'hello\n');
    const link = join(work.dir, 'link.ndjson');
    symlinkSync('keep/target.ndjson', link);
    const r = await run(['invite', '1001', '--from-csv', csv, '--journal', join(work.dir, 'j.db'), '--results', link]);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('keep/target.ndjson');
    expect(JSON.parse(readFileSync(join(work.dir, 'keep', 'target.ndjson'), 'utf8'))).toMatchObject({
      line: 2,
      outcome: 'invited',
    });

    execFileSync('mkfifo', [join(work.dir, 'fifo')]);
    symlinkSync('fifo', join(work.dir, 'fifo.ndjson'));
    const before = (await serviceRequests()).length;
    const fifo = await run([
      'invite',
      '1001',
      '--from-csv',
      csv,
      '--journal',
      join(work.dir, 'j2.db'),
      '--results',
      join(work.dir, 'fifo.ndjson'),
    ]);
    expect(fifo.code).toBe(2);
    expect(fifo.stderr).toContain(
      `--results: ${join(work.dir, 'fifo.ndjson')} (a link to ${join(work.dir, 'fifo')}) is a FIFO, not a regular file`,
    );
    expect(lstatSync(join(work.dir, 'fifo')).isFIFO()).toBe(true);
    expect((await serviceRequests()).length).toBe(before);
  });
});
