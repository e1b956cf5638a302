// What a resume after kill -9 can and cannot promise with --send-email. The candidates in flight
// when the run died may have been e-mailed already (at most --concurrency of them): the re-run
// names them and invites them without an e-mail, so nobody gets two; a run with --yes e-mails
// them again, and names every one who may now have two.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { csvOf, journalItems, ndjson } from '../helpers/bulk.js';
import { gateProxy, INVITES, type GateProxy } from '../helpers/gate-proxy.js';
import { storeOf } from '../helpers/store.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

let s: TestSandbox;
let gate: GateProxy;
const work = tempDir('assess-resume-');
beforeAll(async () => {
  s = await startTestSandbox();
  // The service acts at once and, past the first answers, answers late: the kill lands after the
  // e-mails of the requests in flight went out but before the CLI heard of them — the window a
  // resume cannot see into — however fast this machine is.
  gate = await gateProxy(s.sb.baseUrl, 8, INVITES);
});
afterAll(async () => {
  await gate?.close();
  await s?.close();
  work.cleanup();
});

const perCandidate = async () => {
  const { emails } = await s.control<{ emails: Array<{ to: string; kind: string }> }>('GET', '/outbox');
  const per = new Map<string, number>();
  for (const e of emails)
    if (e.kind === 'invitation' && e.to.endsWith('@resume.example')) per.set(e.to, (per.get(e.to) ?? 0) + 1);
  return per;
};

describe('resume after kill -9 with --send-email', () => {
  it('the re-run e-mails nobody twice and names who it did not e-mail; --yes e-mails them, named', async () => {
    const ROWS = 40;
    const CONCURRENCY = 4;
    const csv = join(work.dir, 'mail.csv');
    writeFileSync(csv, csvOf(Array.from({ length: ROWS }, (_, i) => [`m${i}@resume.example`, `M ${i}`])));
    const cfg = join(work.dir, 'config');
    const env = { ...s.env, ASSESS_BASE_URL: gate.url };
    const first = spawnAssess(['invite', '1001', '--csv', csv, '--send-email', '--concurrency', String(CONCURRENCY)], {
      env,
      configDir: cfg,
    });
    // the first 8 answered and journaled, and every row journaled as in flight past them acted on
    // by the service (its answer held by the gate): a row killed before its request left would
    // get no e-mail at all, which is not the window this test is about
    const inFlightActedOn = () => {
      const items = journalItems(storeOf(cfg));
      const sending = items.filter((i) => i.state === 'sending').length;
      return items.filter((i) => i.state === 'done').length >= 8 && sending > 0 && gate.held() >= sending;
    };
    await waitFor(() => inFlightActedOn() || first.child.exitCode !== null, {
      timeoutMs: 300_000,
      what: 'journal rows and requests in flight',
    });
    first.child.kill('SIGKILL');
    await first.done;
    // let the proxy finish passing on what the killed run sent, then answer from now on
    await waitFor(() => gate.unsent() === 0, { what: 'the proxy to pass on what the killed run sent' });
    gate.release();

    // through the proxy as well: the journal belongs to the URL its runs used
    const again = await runAssess(['invite', '1001', '--csv', csv, '--send-email'], {
      env,
      configDir: cfg,
      timeoutMs: 90_000,
    });
    expect(again.code, again.stderr).toBe(0);
    const per = await perCandidate();
    expect(per.size).toBe(ROWS);
    expect([...per].filter(([, n]) => n > 1)).toEqual([]);
    type Line = { row: { email: string }; emailWithheld?: boolean; maybeEmailedTwice?: boolean };
    const withheld = ndjson<Line>(`${csv}.results.ndjson`)
      .filter((l) => l.emailWithheld)
      .map((l) => l.row.email);
    expect(withheld.length).toBeGreaterThan(0); // the window is real (this is what the docs warn of)
    expect(withheld.length).toBeLessThanOrEqual(CONCURRENCY);
    const warned =
      /being invited with an e-mail when an earlier attempt stopped[^:]*: [^:]*: (.*)/.exec(again.stderr)?.[1] ?? '';
    for (const to of withheld) expect(warned).toContain(to);
    expect(again.stderr).toContain('run again with --yes to e-mail them anyway');

    // --yes: exactly those are e-mailed again, and marked as maybe e-mailed twice
    const yes = await runAssess(['invite', '1001', '--csv', csv, '--send-email', '--yes'], {
      env,
      configDir: cfg,
      timeoutMs: 90_000,
    });
    expect(yes.code, yes.stderr).toBe(0);
    const twice = [...(await perCandidate())].filter(([, n]) => n > 1).map(([to]) => to);
    expect(twice.sort()).toEqual([...withheld].sort());
    const flagged = ndjson<Line>(`${csv}.results.ndjson`)
      .filter((l) => l.maybeEmailedTwice)
      .map((l) => l.row.email);
    expect(flagged.sort()).toEqual(twice);
    if (process.env.SHOW_FIGURES) console.log('withheld', withheld.length, 'then e-mailed with --yes', twice.length);
  });
});
