// Forwarding from the store: (1) a backlog of N queued notifications drained by a restarted
// listener once the target is back, one at a time (--forward-concurrency 1, the design before
// lanes) against the default 8 and 16, the target answering after `latencyMs`; (2) the target down
// for `downMinutes` while notifications keep arriving: nothing lost, nothing dead-lettered, all
// delivered once it is back (real time: the breaker probes every 30 s meanwhile).
// Run: node bench/forward-drain.mjs [backlog=1000] [latencyMs=20] [downMinutes=10]
import { build } from 'esbuild';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const backlog = Number(process.argv[2] ?? 1000);
const latencyMs = Number(process.argv[3] ?? 20);
const downMinutes = Number(process.argv[4] ?? 10);
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
const work = mkdtempSync(join(tmpdir(), 'assess-bench-drain-'));
const env = { ...process.env, ASSESS_CONFIG_DIR: work, NO_COLOR: '1', CI: 'true' };

let up = true;
const got = new Map();
const target = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (!up) return res.writeHead(503).end();
    const id = req.headers['webhook-id'] ?? Buffer.concat(chunks).toString();
    setTimeout(() => {
      got.set(id, (got.get(id) ?? 0) + 1);
      res.writeHead(204).end();
    }, latencyMs);
  });
});
await new Promise((r) => target.listen(0, '127.0.0.1', r));
const to = `http://127.0.0.1:${target.address().port}/hook`;
const body = (i) =>
  JSON.stringify({ TestInvitationId: 900000 + (i >> 1), Status: i % 2 ? 'Complete' : 'In Progress', n: i });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function queue(store, n) {
  const inbox = Inbox.open(store);
  for (let i = 0; i < n; i++)
    await inbox.addNotification({ raw: Buffer.from(body(i)), headers: {}, at: new Date(), forwardTo: to });
  inbox.close();
}

function listen(store, extra = []) {
  return spawn(
    process.execPath,
    [BIN, 'callbacks', 'listen', '--port', '0', '--print-url', '--store', store, '--forward-to', to, ...extra],
    {
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
}
const urlOf = (child) => new Promise((r) => child.stdout.once('data', (d) => r(String(d).split('\n')[0])));
const stop = (child) => new Promise((r) => (child.on('exit', r), child.kill('SIGTERM')));

const rows = [];
for (const concurrency of [1, 8, 16]) {
  got.clear();
  const store = join(work, `drain-${concurrency}.db`);
  await queue(store, backlog);
  const t0 = performance.now();
  const child = listen(store, ['--forward-concurrency', String(concurrency)]);
  while (got.size < backlog) await sleep(20);
  const s = (performance.now() - t0) / 1000;
  await stop(child);
  rows.push({ concurrency, s, rate: backlog / s });
}
console.log(
  `Node ${process.version}, load ${(await import('node:os')).loadavg()[0].toFixed(1)}; target answers after ` +
    `${latencyMs} ms`,
);
console.log(`| backlog ${backlog}, --forward-concurrency | drained in | notifications/s | × one at a time |`);
console.log('|---:|---:|---:|---:|');
for (const r of rows)
  console.log(
    `| ${r.concurrency} | ${r.s.toFixed(1)} s | ${r.rate.toFixed(0)} | ${(r.rate / rows[0].rate).toFixed(1)} |`,
  );

// the target down for downMinutes, notifications arriving all along
got.clear();
up = false;
const store = join(work, 'down.db');
const child = listen(store);
const url = await urlOf(child);
const end = Date.now() + downMinutes * 60_000;
let sent = 0;
while (Date.now() < end) {
  const r = await fetch(url, { method: 'POST', body: body(sent) });
  if (r.status === 200) sent++;
  await sleep(Math.max(50, (downMinutes * 60_000) / 600)); // ~600 over the outage
}
up = true;
const back = performance.now();
while (got.size < sent && performance.now() - back < 300_000) await sleep(100);
const drainS = (performance.now() - back) / 1000;
await stop(child);
const failed = JSON.parse(
  execFileSync(process.execPath, [BIN, 'callbacks', 'inbox', '--failed', '--store', store, '--json', 'id'], {
    env,
  }).toString(),
);
console.log(
  `\ntarget down ${downMinutes} min, ${sent} notifications acknowledged meanwhile: ` +
    `${got.size} delivered ${drainS.toFixed(1)} s after it came back, ${sent - got.size} missing, ` +
    `${failed.length} dead letters`,
);
target.close();
rmSync(work, { recursive: true, force: true });
