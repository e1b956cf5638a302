// `assess invite <testId> --csv` against a sandbox: exact accounting of invitations, resume
// from the journal in the profile's store (re-run, kill -9), bad rows stopped before anything is
// sent, exit 5 with a results file when the service refuses some rows.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { csvOf, csvRun, doneItems, journalItems, ndjson } from '../helpers/bulk.js';
import { gateProxy, INVITES, type GateProxy } from '../helpers/gate-proxy.js';
import { storeOf } from '../helpers/store.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

let s: TestSandbox;
const work = tempDir('assess-bulk-invite-');
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => {
  await s?.close();
  work.cleanup();
});

type Inv = { testInvitationId: number; email: string; status: string; testId: number };
const invitationsOf = async (domain: string) =>
  (await s.control<{ invitations: Inv[] }>('GET', '/invitations')).invitations.filter((i) =>
    i.email.endsWith(`@${domain}`),
  );
const serviceRequests = async () =>
  (await s.control<{ requests: Array<{ path: string }> }>('GET', '/requests')).requests.filter((r) =>
    r.path.startsWith('/v3/'),
  );
const rowsFor = (domain: string, n: number) =>
  Array.from({ length: n }, (_, i) => [`cand${i}@${domain}`, `Candidate ${i}`]);
const cfg = join(work.dir, 'config');
const store = storeOf(cfg);
const run = (args: string[], extra: { stdin?: string } = {}) =>
  runAssess(args, { env: s.env, cwd: work.dir, configDir: cfg, timeoutMs: 90_000, ...extra });

describe('assess invite --csv', () => {
  const csv = join(work.dir, 'cohort.csv');
  const results = `${csv}.results.ndjson`;

  it('invites 500 rows exactly once each; the results file has one line per row', async () => {
    writeFileSync(csv, csvOf(rowsFor('cohort.example', 500)));
    const r = await run(['invite', '1001', '--csv', csv]);
    expect(r.stderr).toMatch(/: 500 invited in /);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const invs = await invitationsOf('cohort.example');
    expect(invs).toHaveLength(500);
    expect(new Set(invs.map((i) => i.email)).size).toBe(500);
    const lines = ndjson<{ line: number; outcome: string; testInvitationId: number; testUrl: string; status: string }>(
      results,
    );
    expect(lines).toHaveLength(500);
    expect(lines.every((l) => l.outcome === 'invited' && l.status === 'Pending' && /\/take\//.test(l.testUrl))).toBe(
      true,
    );
    expect(new Set(lines.map((l) => l.line)).size).toBe(500);
    expect(doneItems(store, 'invite', csvRun(csv))).toHaveLength(500);
  });

  it('a re-run sends nothing and reports every row as already invited (journal)', async () => {
    await s.control('DELETE', '/requests');
    const r = await run(['invite', '1001', '--csv', csv]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/: 500 already invited \(earlier run\), nothing to do\. Results/);
    expect(await serviceRequests()).toEqual([]);
    expect(await invitationsOf('cohort.example')).toHaveLength(500);
    const lines = ndjson<{ outcome: string; testInvitationId: number }>(results);
    expect(lines).toHaveLength(500);
    expect(lines.every((l) => l.outcome === 'skipped' && typeof l.testInvitationId === 'number')).toBe(true);
  });

  it('without the journal the service hands back the existing invitations: none created, taken ones reported as existing', async () => {
    const invs = await invitationsOf('cohort.example');
    for (const inv of invs.slice(0, 3))
      await s.control('POST', `/invitations/${inv.testInvitationId}/simulate`, { to: 'complete', score: 50 });
    const r = await run(['invite', '1001', '--csv', csv, '--journal', join(work.dir, 'fresh.journal.db')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/: 497 invited, 3 existing invitations returned in /);
    expect(await invitationsOf('cohort.example')).toHaveLength(500);
    const lines = ndjson<{ outcome: string; status: string; testInvitationId: number }>(
      join(work.dir, 'fresh.results.ndjson'),
    );
    const existing = lines.filter((l) => l.outcome === 'existing');
    expect(existing.map((l) => l.testInvitationId).sort()).toEqual(
      invs
        .slice(0, 3)
        .map((i) => i.testInvitationId)
        .sort(),
    );
    expect(existing.every((l) => l.status === 'Complete')).toBe(true);
  });

  it('bad rows (bad e-mail, missing name, broken quoting) are listed with line numbers and nothing is sent', async () => {
    const bad = join(work.dir, 'bad.csv');
    writeFileSync(
      bad,
      'EMAIL,Name\nok1@bad.example,Ok One\nnot-an-email,Bad Mail\nok2@bad.example,\nok3@bad.example,Ok ' +
        'Three\nok4@bad.example,"Lee, "Ann"\n',
    );
    await s.control('DELETE', '/requests');
    const r = await run(['invite', '1001', '--csv', bad]);
    expect(r.code).toBe(2);
    // two lines: every bad row's line, the first one's problem, and how to see each
    expect(r.stderr).toMatch(
      /\nerror: --from-csv: 3 bad rows in .*bad\.csv \(lines 3, 4, 6\); nothing was sent; line 3: email: must be an e-mail address.*\n {2}see each: add --dry-run --skip-invalid; .*\n$/,
    );
    expect(r.stderr).not.toMatch(/not-an-email|Bad Mail/);
    expect(await serviceRequests()).toEqual([]);
    expect(await invitationsOf('bad.example')).toEqual([]);
    expect(readdirSync(work.dir).filter((f) => f.startsWith('bad.csv.'))).toEqual([]);

    const dry = await run(['invite', '1001', '--csv', bad, '--dry-run', '--skip-invalid']);
    expect(dry.code).toBe(0);
    expect(dry.stderr).toMatch(/2 would be sent\. Nothing was sent\./);
    expect(dry.stderr).toMatch(/line 4: name: is empty \(skipped with --skip-invalid\)/);
    expect(dry.stderr).toMatch(/line 6: broken quoting/);
    expect(await serviceRequests()).toEqual([]);

    const skip = await run(['invite', '1001', '--csv', bad, '--skip-invalid']);
    // skipped on purpose: not a failure, no exit 5 on their own
    expect(skip.code, skip.stderr).toBe(0);
    expect(skip.stderr).toMatch(/: 2 invited, 3 invalid rows not sent in /);
    // each bad row is named before anything is sent, not only in the results file
    expect(skip.stderr).toMatch(/line 3: email: must be an e-mail address.*\(skipped with --skip-invalid\)/);
    expect(skip.stderr).toMatch(/line 4: name: is empty \(skipped with --skip-invalid\)/);
    expect((await invitationsOf('bad.example')).map((i) => i.email).sort()).toEqual([
      'ok1@bad.example',
      'ok3@bad.example',
    ]);
    const lines = ndjson<{ line: number; outcome: string }>(`${bad}.results.ndjson`);
    expect(lines.map((l) => `${l.line}:${l.outcome}`).sort()).toEqual([
      '2:invited',
      '3:invalid',
      '4:invalid',
      '5:invited',
      '6:invalid',
    ]);
  });

  it('exit 5 with a results file when the service refuses some rows (a link of another account)', async () => {
    const mixed = join(work.dir, 'mixed.csv');
    writeFileSync(
      mixed,
      csvOf(
        [
          ['a@mixed.example', 'A', ''],
          ['b@mixed.example', 'B', '5007'],
          ['c@mixed.example', 'C', '5002'],
        ],
        ['email', 'name', 'Link'],
      ),
    );
    const r = await run(['invite', '1001', '--csv', mixed]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/: 2 invited, 1 failed in /);
    // the first errors in the message itself, and what a re-run does
    expect(r.stderr).toMatch(
      /error: 1 of 3 items failed \(all of them in .*mixed\.csv\.results\.ndjson\):\n {2}line 3: 404 /,
    );
    expect(r.stderr).toMatch(/Run the same command again to retry only the failed items/);
    const lines = ndjson<{ line: number; outcome: string; error?: { status: number; messages: string[] } }>(
      `${mixed}.results.ndjson`,
    );
    const failed = lines.filter((l) => l.outcome === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ line: 3, error: { status: 404 } });
    expect((await invitationsOf('mixed.example')).map((i) => i.email).sort()).toEqual([
      'a@mixed.example',
      'c@mixed.example',
    ]);
    // The failed row is journaled as a failure, not as done: a re-run retries it (and only it).
    const journal = journalItems(store, 'invite', csvRun(mixed));
    expect(
      journal
        .filter((j) => j.state === 'done')
        .map((j) => j.key)
        .sort(),
    ).toEqual(['1001|5002|c@mixed.example', '1001|default|a@mixed.example']);
    expect(journal.filter((j) => j.state === 'failed').map((j) => [j.key, j.mails, j.entry.line])).toEqual([
      ['1001|5007|b@mixed.example', 0, 3],
    ]);
  });

  it('reads standard input (--csv -): its journal is named by the current directory, its results in it', async () => {
    const r = await run(['invite', '1001', '--csv', '-'], { stdin: csvOf(rowsFor('stdin.example', 3)) });
    expect(r.code).toBe(0);
    expect(await invitationsOf('stdin.example')).toHaveLength(3);
    expect(doneItems(store, 'invite', `1001 - ${work.dir}`)).toHaveLength(3);
    expect(ndjson(join(work.dir, 'invite-1001.results.ndjson'))).toHaveLength(3);
  });

  it('--journal /dev/null (or any device): refused, nothing sent; a journal is a file the next run reads', async () => {
    const nojournal = join(work.dir, 'nojournal.csv');
    writeFileSync(nojournal, csvOf(rowsFor('nojournal.example', 3)));
    const r = await run(['invite', '1001', '--from-csv', nojournal, '--journal', '/dev/null']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--journal: /dev/null is not a regular file');
    expect(await invitationsOf('nojournal.example')).toEqual([]);
  });
});

describe('assess invite --csv, killed mid-way', () => {
  // past the first 20 answers every answer is held (the invitations are made): the kill lands
  // mid-run with requests in flight, however fast this machine is
  let slow: TestSandbox;
  let gate: GateProxy;
  let env: Record<string, string>;
  beforeAll(async () => {
    slow = await startTestSandbox();
    gate = await gateProxy(slow.sb.baseUrl, 20, INVITES);
    env = { ...slow.env, ASSESS_BASE_URL: gate.url };
  });
  afterAll(async () => {
    await gate?.close();
    await slow?.close();
  });

  it('kill -9 then re-run: every row invited exactly once, no results file under its final name from the killed run', async () => {
    const dir = tempDir('assess-bulk-kill-');
    const csv = join(dir.dir, 'kill.csv');
    writeFileSync(csv, csvOf(rowsFor('kill.example', 300)));
    const journal = () => doneItems(storeOf(dir.dir));
    const first = spawnAssess(['invite', '1001', '--csv', csv, '--concurrency', '2'], {
      env,
      cwd: dir.dir,
      configDir: dir.dir,
    });
    await waitFor(() => journal().length >= 20 && gate.held() > 0, {
      timeoutMs: 300_000, // a bulk run's start and rows, on a busy machine
      what: 'journal rows and a request in flight',
    });
    first.child.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    const before = journal().length;
    expect(before).toBeLessThan(300);
    expect(readdirSync(dir.dir)).not.toContain('kill.csv.results.ndjson');

    await waitFor(() => gate.unsent() === 0, { what: 'the proxy to pass on what the killed run sent' });
    gate.release();
    const again = await runAssess(['invite', '1001', '--csv', csv], {
      env,
      cwd: dir.dir,
      configDir: dir.dir,
      timeoutMs: 90_000,
    });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(
      new RegExp(`: ${300 - before} invited, ${before} already invited \\(earlier run\\) in `),
    );
    const invs = (await slow.control<{ invitations: Inv[] }>('GET', '/invitations')).invitations.filter((i) =>
      i.email.endsWith('@kill.example'),
    );
    expect(invs).toHaveLength(300);
    expect(new Set(invs.map((i) => i.email)).size).toBe(300);
    expect(journal()).toHaveLength(300);
    expect(readdirSync(dir.dir).filter((f) => f.endsWith('.part'))).toEqual([]);
    expect(readFileSync(`${csv}.results.ndjson`, 'utf8').trim().split('\n')).toHaveLength(300);
    dir.cleanup();
  });
});
