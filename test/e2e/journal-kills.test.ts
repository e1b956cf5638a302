// The warnings that matter survive kills and re-runs. A real bulk invite with
// --send-email is killed with SIGKILL at seeded moments, three times, then run to the end; the
// sandbox's outbox tells who got two invitation e-mails. After every kill the journal alone, and
// at the end the last results file, name every one of them; the killed runs' outcomes are in the
// final results (recovered from the journal).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { csvOf, doneItems, journalItems, ndjson } from '../helpers/bulk.js';
import { gateProxy, INVITES, type GateProxy } from '../helpers/gate-proxy.js';
import { storeOf } from '../helpers/store.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';
import { seededRandom } from '../../src/sandbox/fault-spec.js';

const SEED = Number(process.env.KILL_SEED ?? 31_005);
const ROWS = 80;
const CONCURRENCY = 8;
const TAG = '@kills.example';

let s: TestSandbox;
let gate: GateProxy;
const work = tempDir('assess-kills-');

beforeAll(async () => {
  s = await startTestSandbox();
  // The service acts at once; past the answers a round lets through it answers nothing: the kill
  // lands after the e-mails of the requests in flight went out but before the CLI heard of them,
  // so a re-run sends a second e-mail — however fast this machine is.
  gate = await gateProxy(s.sb.baseUrl, 0, INVITES);
});
afterAll(async () => {
  await gate?.close();
  await s?.close();
  work.cleanup();
});

const emailOf = (key: string) => key.split('|').at(-1)!;

/** Candidates with two or more invitation e-mails in the sandbox's outbox. */
async function twiceMailed(): Promise<string[]> {
  const { emails } = await s.control<{ emails: Array<{ to: string; kind: string }> }>('GET', '/outbox');
  const per = new Map<string, number>();
  for (const e of emails) if (e.kind === 'invitation' && e.to.endsWith(TAG)) per.set(e.to, (per.get(e.to) ?? 0) + 1);
  return [...per].filter(([, n]) => n > 1).map(([to]) => to);
}

/** Who the journal alone names as maybe e-mailed twice (the documented query: `twice = 1`). */
const flaggedInJournal = (store: string) =>
  new Set(
    journalItems(store)
      .filter((i) => i.twice === 1)
      .map((i) => emailOf(i.key)),
  );

describe('maybe e-mailed twice survives kill -9 and re-runs', () => {
  it(`seed ${SEED}: after every kill the journal, and at the end the results, name every doubly e-mailed candidate`, async () => {
    const rand = seededRandom(SEED);
    const csv = join(work.dir, 'cohort.csv');
    const cfg = join(work.dir, 'config');
    const journal = storeOf(cfg);
    const results = `${csv}.results.ndjson`;
    writeFileSync(csv, csvOf(Array.from({ length: ROWS }, (_, i) => [`k${i}${TAG}`, `K ${i}`])));
    // --yes: each re-run e-mails the candidates in flight at the kill again (without it, none is e-mailed twice)
    const args = ['invite', '1001', '--from-csv', csv, '--send-email', '--yes', '--concurrency', String(CONCURRENCY)];

    let kills = 0;
    for (let round = 0; round < 3; round++) {
      const before = doneItems(journal).length;
      // kill when the run has finished a seeded number of rows (4…19), with requests in flight
      const at = Math.min(ROWS - CONCURRENCY, before + 4 + Math.floor(rand() * 16));
      gate.open(at - before);
      const run = spawnAssess(args, { env: { ...s.env, ASSESS_BASE_URL: gate.url }, configDir: cfg });
      await waitFor(() => (doneItems(journal).length >= at && gate.held() > 0) || run.child.exitCode !== null, {
        timeoutMs: 300_000,
        what: `${at} finished rows and requests in flight`,
      });
      if (run.child.exitCode === null) kills++;
      run.child.kill('SIGKILL');
      await run.done;
      await waitFor(() => gate.unsent() === 0, { what: 'the proxy to pass on what the killed run sent' });
      // the journal alone names everyone who may have two e-mails so far
      const twice = await twiceMailed();
      expect([...flaggedInJournal(journal)]).toEqual(expect.arrayContaining(twice));
    }
    expect(kills).toBe(3);

    // through the proxy as well: the journal belongs to the URL its runs used
    gate.release();
    const last = await runAssess(args, {
      env: { ...s.env, ASSESS_BASE_URL: gate.url },
      configDir: cfg,
      timeoutMs: 90_000,
    });
    expect(last.code, last.stderr).toBe(0);
    expect(last.stderr).toMatch(
      /An earlier run was killed before it wrote its results; what it did is in the journal \(.*store\/default\.db\)/,
    );
    const twice = await twiceMailed();
    expect(twice.length).toBeGreaterThan(0); // the window is real

    const lines = ndjson<{
      line: number;
      row: { email: string };
      outcome: string;
      earlierOutcome?: string;
      testInvitationId?: number;
      maybeEmailedTwice?: boolean;
    }>(results);
    // the last results file: a line per row; the killed runs' outcomes recovered from the journal
    expect(lines).toHaveLength(ROWS);
    const journaled = doneItems(journal);
    for (const l of lines) {
      expect(['invited', 'existing', 'skipped']).toContain(l.outcome);
      expect(typeof l.testInvitationId).toBe('number');
      if (l.outcome === 'skipped') expect(['invited', 'existing']).toContain(l.earlierOutcome);
    }
    expect(lines.filter((l) => l.outcome === 'skipped').length).toBeGreaterThan(0);
    expect(new Set(journaled.map((i) => emailOf(i.key)))).toEqual(new Set(lines.map((l) => l.row.email)));

    const flagged = lines.filter((l) => l.maybeEmailedTwice).map((l) => l.row.email);
    if (process.env.SHOW_FIGURES)
      console.log(`seed ${SEED}: ${twice.length} of ${ROWS} e-mailed twice, ${flagged.length} flagged`);
    expect(flagged).toEqual(expect.arrayContaining(twice));
    expect([...flaggedInJournal(journal)]).toEqual(expect.arrayContaining(twice));
    // and no one is flagged without two attempts that may have e-mailed
    const attempts = new Map(journalItems(journal).map((i) => [emailOf(i.key), i.mails]));
    for (const to of flagged) expect(attempts.get(to)).toBeGreaterThan(1);
    expect(last.stderr).toMatch(new RegExp(`${flagged.length} may have been e-mailed twice: marked maybeEmailedTwice`));
  });
});
