// What a resume after kill -9 can and cannot promise with --send-email. The candidates in flight
// when the run died may have been e-mailed already (at most --concurrency of them): the re-run
// names them and invites them without an e-mail, so nobody gets two; a run with --yes e-mails
// them again, and names every one who may now have two.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { csvOf, doneItems, ndjson } from '../helpers/bulk.js';
import { storeOf } from '../helpers/store.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

let s: TestSandbox;
let slowUrl = '';
let proxy: Server;
/** Requests the proxy has taken and not yet passed on to the sandbox (a killed client's included). */
let upstream = 0;
const work = tempDir('assess-resume-');
beforeAll(async () => {
  s = await startTestSandbox();
  // The service acts at once and answers late: a kill lands after the e-mail went out but
  // before the CLI heard of it — the window a resume cannot see into.
  proxy = createServer((req, res) => {
    upstream++;
    let counted = true;
    const passedOn = () => {
      if (counted) upstream--;
      counted = false;
    };
    req.on('close', () => {
      if (!req.complete) passedOn(); // cut off before its end: never passed on
    });
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    // the listener returns nothing; the promise is handled inside (try/catch)
    req.on(
      'end',
      () =>
        void (async () => {
          try {
            const headers = { 'x-api-key': String(req.headers['x-api-key'] ?? ''), 'content-type': 'application/json' };
            const answer = await fetch(`${s.sb.baseUrl}${req.url}`, {
              method: req.method,
              headers,
              body: chunks.length ? Buffer.concat(chunks) : undefined,
            });
            const text = await answer.text();
            setTimeout(() => res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text), 300);
          } catch {
            res.destroy();
          } finally {
            passedOn();
          }
        })(),
    );
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  slowUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise<void>((r) => proxy.close(() => r()));
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
    const env = { ...s.env, ASSESS_BASE_URL: slowUrl };
    const first = spawnAssess(['invite', '1001', '--csv', csv, '--send-email', '--concurrency', String(CONCURRENCY)], {
      env,
      configDir: cfg,
    });
    await waitFor(() => doneItems(storeOf(cfg)).length >= 8 || first.child.exitCode !== null, {
      timeoutMs: 60_000,
      what: 'journal rows',
    });
    first.child.kill('SIGKILL');
    await first.done;
    // let the proxy finish what the service already did (a fixed pause was too short on a loaded machine)
    await waitFor(() => upstream === 0, { what: 'the proxy to finish what the service already did' });

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
