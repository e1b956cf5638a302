// Locks by identity. A journal in use is the same file under a symlink and `./name` from its
// directory (the lock lies beside its real path, whatever config dir each run has); the store of
// a running listener likewise (SQLite's lock: released by the kernel when the holder dies): a
// second run or listener on any of them exits 2 naming the holder, and nothing is sent twice.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { csvOf } from '../helpers/bulk.js';
import { query } from '../helpers/store.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

let s: TestSandbox;
/** Holds every request until `release()`: the first run is surely still running meanwhile. */
let gate: Server;
let gateUrl = '';
const held: Array<() => void> = [];
let open = false;
const release = () => {
  open = true;
  for (const go of held.splice(0)) go();
};
const work = tempDir('assess-idlock-');
beforeAll(async () => {
  s = await startTestSandbox();
  gate = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const go = () =>
        void (async () => {
          try {
            const headers = { 'x-api-key': String(req.headers['x-api-key'] ?? ''), 'content-type': 'application/json' };
            const answer = await fetch(`${s.sb.baseUrl}${req.url}`, {
              method: req.method,
              headers,
              body: chunks.length ? Buffer.concat(chunks) : undefined,
            });
            res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
          } catch {
            res.destroy();
          }
        })();
      if (open) go();
      else held.push(go);
    });
  });
  await new Promise<void>((r) => gate.listen(0, '127.0.0.1', r));
  gateUrl = `http://127.0.0.1:${(gate.address() as AddressInfo).port}`;
});
afterAll(async () => {
  release();
  gate?.closeAllConnections();
  await new Promise<void>((r) => gate.close(() => r()));
  await s?.close();
  work.cleanup();
});

describe('the journal lock holds by identity', () => {
  it('symlink, ./j: each second run exits 2 naming the holder; every row sent once', async () => {
    const dir = join(work.dir, 'j');
    const elsewhere = join(work.dir, 'elsewhere');
    mkdirSync(dir);
    mkdirSync(elsewhere);
    const csv = join(dir, 'c.csv');
    const ROWS = 40;
    writeFileSync(csv, csvOf(Array.from({ length: ROWS }, (_, i) => [`h${i}@idlock.example`, `H ${i}`])));
    const journal = join(dir, 'j.db');
    writeFileSync(journal, ''); // an empty file is an empty database
    symlinkSync(journal, join(elsewhere, 'soft.db'));

    const holder = () => query(journal, 'SELECT held_by FROM run WHERE held_by IS NOT NULL');
    const first = spawnAssess(['invite', '1001', '--from-csv', csv, '--journal', journal, '--concurrency', '1'], {
      env: { ...s.env, ASSESS_BASE_URL: gateUrl },
    });
    // its first request is held at the gate: it holds the lock until release()
    await waitFor(() => held.length > 0 || first.child.exitCode !== null, {
      timeoutMs: 20_000,
      what: 'the first run to send',
    });
    expect(holder()).toHaveLength(1);
    const worker = first.child.pid!; // the run is the started process
    const others: Array<[string, string[], string]> = [
      [
        'symlink',
        ['--journal', join(elsewhere, 'soft.db'), '--results', join(elsewhere, 'soft.results.ndjson')],
        work.dir,
      ],
      ['./j.db', ['--journal', './j.db', '--results', './rel.results.ndjson'], dir],
    ];
    for (const [name, flags, cwd] of others) {
      // through the gate too: on the old code this run would send (and be held), not exit
      const r = await runAssess(['invite', '1001', '--from-csv', csv, ...flags], {
        env: { ...s.env, ASSESS_BASE_URL: gateUrl },
        cwd,
        timeoutMs: 20_000,
      });
      expect(first.child.exitCode, `${name}: the first run must still be running`).toBeNull();
      expect(r.code, `${name}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(`the journal of this run .* is in use by another assess run \\(pid ${worker} `),
      );
    }
    release();
    const a = await first.done;
    expect(a.code, a.stderr).toBe(0);
    const sent = (await s.requests()).filter(
      (r) => r.method === 'POST' && JSON.stringify(r.body ?? '').includes('@idlock.example'),
    );
    expect(sent).toHaveLength(ROWS);
    expect(holder()).toEqual([]);
    // free again, under any of its names
    const after = await runAssess(
      ['invite', '1001', '--from-csv', csv, '--journal', join(elsewhere, 'soft.db'), '--dry-run'],
      { env: { ...s.env, ASSESS_BASE_URL: gateUrl } },
    );
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toMatch(new RegExp(`${ROWS} already invited`));
  });
});

describe('the listener lock holds by identity', () => {
  it('a second listener on the store, a symlink of it or ./name waits for it, then exits 2 naming the holder', async () => {
    const dir = join(work.dir, 'inbox');
    mkdirSync(dir);
    const store = join(dir, 'in.db');
    const first = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--store', store]);
    try {
      await first.firstLine();
      // a hard link is no case: SQLite names its -wal beside the path, so a database has one name
      symlinkSync(store, join(dir, 'soft.db'));
      for (const [name, path, cwd] of [
        ['same path', store, undefined],
        ['symlink', join(dir, 'soft.db'), undefined],
        ['./in.db', './in.db', dir],
      ] as const) {
        const second = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--store', path], {
          cwd,
          env: { ASSESS_BUSY_TIMEOUT: '0.3' },
        });
        // either it refuses (exits) or it starts listening (prints its URL): whichever comes first
        await waitFor(() => second.child.exitCode !== null || second.lines().length > 0, {
          timeoutMs: 20_000,
          what: `${name}: the second listener`,
        });
        const listening = second.lines().length > 0;
        const r = await second.stop('SIGINT');
        expect(listening, `${name}: a second listener started on the same store`).toBe(false);
        expect(r.code).toBe(2);
        expect(second.stderr()).toMatch(/Waiting for the callbacks listen that uses .*(in|soft)\.db to stop/);
        expect(second.stderr()).toMatch(
          new RegExp(`it is in use by another callbacks listen \\(pid ${first.child.pid}, since [^,]+, on http://`),
        );
      }
    } finally {
      expect((await first.stop('SIGINT')).code).toBe(0);
    }
    // released at the end: a listener on the symlink starts now
    const again = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--store', join(dir, 'soft.db')]);
    await again.firstLine();
    expect((await again.stop('SIGINT')).code).toBe(0);
  });

  it('kill -9 releases it at once: a listener started right after takes it without waiting', async () => {
    const store = join(work.dir, 'killed.db');
    const first = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--store', store]);
    await first.firstLine();
    first.child.kill('SIGKILL');
    await first.done;
    const next = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--store', store], {
      env: { ASSESS_BUSY_TIMEOUT: '0' },
    });
    await next.firstLine();
    expect(next.stderr()).not.toMatch(/Waiting for/);
    expect((await next.stop('SIGINT')).code).toBe(0);
  });
});
