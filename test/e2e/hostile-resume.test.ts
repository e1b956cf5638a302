// Issue 15 item 12: what a resume after kill -9 can and cannot promise with --send-email. The
// candidates in flight when the run died may get a second e-mail: at most --concurrency of
// them, and the re-run names every one of them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { csvOf, ndjson } from '../helpers/bulk.js';
import { gateProxy, type GateProxy } from '../helpers/gate-proxy.js';
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
  gate = await gateProxy(s.sb.baseUrl, 8);
});
afterAll(async () => {
  await gate?.close();
  await s?.close();
  work.cleanup();
});

describe('resume after kill -9 with --send-email (item 12)', () => {
  it('every candidate gets an e-mail; second e-mails ≤ --concurrency, all named by the re-run', async () => {
    const ROWS = 40;
    const CONCURRENCY = 4;
    const csv = join(work.dir, 'mail.csv');
    writeFileSync(csv, csvOf(Array.from({ length: ROWS }, (_, i) => [`m${i}@resume.example`, `M ${i}`])));
    const journal = `${csv}.journal.ndjson`;
    const first = spawnAssess(['invite', '1001', '--csv', csv, '--send-email', '--concurrency', String(CONCURRENCY)], {
      env: { ...s.env, ASSESS_BASE_URL: gate.url },
    });
    // the first 8 answered and journaled, and requests in flight past them (held by the gate)
    await waitFor(
      () => (ndjson(journal).filter((l) => l.k).length >= 8 && gate.held() > 0) || first.child.exitCode !== null,
      { timeoutMs: 300_000, what: 'journal lines and requests in flight' },
    );
    first.child.kill('SIGKILL');
    await first.done;
    // let the proxy finish passing on what the killed run sent, then answer from now on
    await waitFor(() => gate.unsent() === 0, { what: 'the proxy to pass on what the killed run sent' });
    gate.release();

    // through the proxy as well: the journal belongs to the URL its runs used
    const again = await runAssess(['invite', '1001', '--csv', csv, '--send-email'], {
      env: { ...s.env, ASSESS_BASE_URL: gate.url },
    });
    expect(again.code).toBe(0);
    const { emails } = await s.control<{ emails: Array<{ to: string; kind: string }> }>('GET', '/outbox');
    const per = new Map<string, number>();
    for (const e of emails)
      if (e.kind === 'invitation' && e.to.endsWith('@resume.example')) per.set(e.to, (per.get(e.to) ?? 0) + 1);
    expect(per.size).toBe(ROWS);
    const twice = [...per].filter(([, n]) => n > 1).map(([to]) => to);
    expect(twice.length).toBeGreaterThan(0); // the window is real (this is what the docs warn of)
    expect(twice.length).toBeLessThanOrEqual(CONCURRENCY);
    const warned = /being invited with an e-mail when an earlier run stopped[^:]*: (.*)/.exec(again.stderr)?.[1] ?? '';
    for (const to of twice) expect(warned).toContain(to);
    if (process.env.SHOW_FIGURES) console.log('second e-mails', twice.length, 'named', warned.split(', ').length);
    const flagged = ndjson<{ row: { email: string }; maybeEmailedTwice?: boolean }>(`${csv}.results.ndjson`)
      .filter((l) => l.maybeEmailedTwice)
      .map((l) => l.row.email);
    expect(flagged.sort()).toEqual(expect.arrayContaining(twice.sort()));
  });
});
