// The callbacks inbox in the store, as it grows: for each size N a store is filled with N
// notifications (~530 bytes each, spread over 30 days, half of them Complete), then
//   restart  — `callbacks listen` started on it, until it answers a notification 200 (median of 3)
//   query    — `callbacks inbox --since 10m --status complete --json`: wall time and peak RSS
//   export   — `callbacks inbox --json` of everything, piped to wc: wall time and peak RSS
// and, on a fresh store, the listener's rate from 32 concurrent senders (each 200 after its commit).
// Run: node bench/callbacks-store.mjs [sizes=100000,500000,1000000] [senders=32] [seconds=10]
import { build } from 'esbuild';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const sizes = (process.argv[2] ?? '100000,500000,1000000').split(',').map(Number);
const senders = Number(process.argv[3] ?? 32);
const seconds = Number(process.argv[4] ?? 10);
const root = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(root, 'bin/assess.cjs');
const bundle = join(root, 'bench/out/callbacks-inbox.mjs');
await build({
  entryPoints: [join(root, 'src/commands/callbacks/shared/inbox.ts')],
  outfile: bundle,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  packages: 'external',
  logLevel: 'warning',
});
const { Inbox } = await import(bundle);
const work = mkdtempSync(join(tmpdir(), 'assess-bench-cb-'));
const env = { ...process.env, ASSESS_CONFIG_DIR: work, NO_COLOR: '1', CI: 'true' };

const body = (i, status) =>
  JSON.stringify({
    CandidateEmailId: `candidate${i}@example.com`,
    AttemptedOn: '09-Oct-2026 06:51 PM',
    AttemptedOnUtc: '2026-10-09T13:21:53',
    TotalScore: 130,
    CandidateScore: 104,
    ReportPDFUrl: `https://assess.example/reports/${900000 + i}/pdf?sig=${'a'.repeat(180)}`,
    TestInvitationId: 900000 + i,
    Status: status,
    PerformanceCategory: 'Good',
  });

/** N notifications in one transaction, the way the inbox stores them, oldest 30 days ago. */
function fill(path, n) {
  const inbox = Inbox.open(path);
  const now = Date.now();
  const insert = inbox.store.sql(
    `INSERT INTO callbacks_notification (id, received_ms, invitation_id, status, status_key, duplicate, headers, body)
     VALUES (?, ?, ?, ?, ?, 0, '{"content-type":"application/json"}', ?)`,
  );
  const chunk = 50_000;
  for (let start = 0; start < n; start += chunk)
    inbox.store.write(() => {
      for (let i = start; i < Math.min(n, start + chunk); i++) {
        const complete = i % 2 === 1;
        const status = complete ? 'Complete' : 'In Progress';
        const at = now - Math.round(((n - i) / n) * 30 * 86_400_000);
        insert.run(
          `msg_${i}`,
          at,
          String(900000 + (i >> 1)),
          status,
          complete ? 'complete' : 'in progress',
          Buffer.from(body(i >> 1, status)),
        );
      }
    });
  inbox.close();
}

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** Spawn to the first 200 of a notification, ms; then the listener is stopped. */
async function restart(store) {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [BIN, 'callbacks', 'listen', '--port', String(port), '--store', store], {
    env,
    stdio: 'ignore',
  });
  let ms = NaN;
  for (let i = 0; i < 4000; i++) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/hook`, { method: 'POST', body: body(i, 'Complete') });
      if (r.status === 200) {
        ms = performance.now() - t0;
        break;
      }
    } catch {
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  return ms;
}

/** Wall ms and peak RSS (MiB) of an assess command, its stdout counted by wc. */
function measure(args) {
  const t0 = performance.now();
  const out = execFileSync(
    'sh',
    ['-c', `/usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1`, 'sh', process.execPath, BIN, ...args],
    {
      env,
      maxBuffer: 1 << 20,
    },
  );
  return { ms: performance.now() - t0, mib: Number(String(out).trim()) / 1024 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
for (const n of sizes) {
  const store = join(work, `n${n}.db`);
  const t0 = performance.now();
  fill(store, n);
  const fillS = (performance.now() - t0) / 1000;
  const r = median([await restart(store), await restart(store), await restart(store)]);
  const q = measure(['callbacks', 'inbox', '--store', store, '--since', '10m', '--status', 'complete', '--json']);
  const all = measure(['callbacks', 'inbox', '--store', store, '--json']);
  rows.push({ n, fillS, r, q, all });
  console.error(`n=${n} done`);
}

// the rate: 32 senders, keep-alive, each waiting for its 200 before the next
const store = join(work, 'rate.db');
const port = await freePort();
const listener = spawn(process.execPath, [BIN, 'callbacks', 'listen', '--port', String(port), '--store', store], {
  env,
  stdio: 'ignore',
});
for (;;) {
  try {
    await fetch(`http://127.0.0.1:${port}/hook`, { method: 'POST', body: body(0, 'Complete') });
    break;
  } catch {
    await new Promise((r) => setTimeout(r, 20));
  }
}
const pool = new Pool(`http://127.0.0.1:${port}`, { connections: senders });
/** The listener's CPU time so far (user + system), ms: a rate that the machine's load does not skew. */
const cpuMs = () => {
  const f = readFileSync(`/proc/${listener.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const cpu0 = cpuMs();
let ok = 0;
let refused = 0;
const end = performance.now() + seconds * 1000;
await Promise.all(
  Array.from({ length: senders }, async (_, s) => {
    for (let i = 0; performance.now() < end; i++) {
      const r = await pool.request({ path: '/hook', method: 'POST', body: body(s * 1_000_000 + i, 'Complete') });
      await r.body.dump();
      if (r.statusCode === 200) ok++;
      else refused++;
    }
  }),
);
const cpu = cpuMs() - cpu0;
await pool.close();
listener.kill('SIGTERM');
await new Promise((r) => listener.on('exit', r));
rmSync(work, { recursive: true, force: true });

console.log(`Node ${process.version}, load ${(await import('node:os')).loadavg()[0].toFixed(1)}`);
console.log('| notifications | fill (s) | restart → 200 (ms) | --since 10m --status complete | full --json export |');
console.log('|---:|---:|---:|---:|---:|');
for (const { n, fillS, r, q, all } of rows)
  console.log(
    `| ${n.toLocaleString('en')} | ${fillS.toFixed(1)} | ${r.toFixed(0)} | ${(q.ms / 1000).toFixed(2)} s, ` +
      `${q.mib.toFixed(0)} MiB | ${(all.ms / 1000).toFixed(1)} s, ${all.mib.toFixed(0)} MiB |`,
  );
console.log(
  `\n${senders} senders, ${seconds} s: ${(ok / seconds).toFixed(0)} notifications/s stored and acknowledged ` +
    `(${refused} not 200); ` +
    `the listener's CPU: ${(cpu / ok).toFixed(2)} ms per notification ` +
    `(${(ok / (cpu / 1000)).toFixed(0)} per CPU-second)`,
);
