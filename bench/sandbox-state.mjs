// Invites per second with state in memory and with a --state file, as the state grows: each size
// N starts a fresh sandbox (a child process, as in bench/sandbox.mjs) and sends N invites (a new
// candidate each) over `connections` connections; the rate over all N and over the last tenth
// (the rate *at* N invitations) is printed, after 500 untimed invites that warm the JIT up, then how long a sandbox
// takes to load the largest
// state. Each phase is bounded (`limit` seconds): a phase cut short says so. On a shared machine
// the wall-clock rates swing with other processes' load; invites per CPU-second of the sandbox
// process (its user + system time during the run) does much less, so it is printed too.
// Run: node bench/sandbox-state.mjs [sizes=1000,10000,100000] [connections=16] [limit=300]
//      SANDBOX_SRC=/path/to/src/sandbox/index.ts measures another tree (e.g. `git archive main`).
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const sizes = (process.argv[2] ?? '1000,10000,100000').split(',').map(Number);
const connections = Number(process.argv[3] ?? 16);
const limit = Number(process.argv[4] ?? 300);
const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = join(root, 'bench/out/sandbox-state.mjs');
await build({
  entryPoints: [process.env.SANDBOX_SRC ?? join(root, 'src/sandbox/index.ts')],
  outfile: bundle,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22.13',
  packages: 'external',
  logLevel: 'warning',
});

/** A sandbox in a child process; resolves with its base URL, key, start-up time and stop(). */
function startChild(stateFile) {
  const code = `
    const t0 = performance.now();
    const { startSandbox } = await import(${JSON.stringify(bundle)});
    const sb = await startSandbox({ port: 0, stateFile: ${JSON.stringify(stateFile ?? null)} ?? undefined });
    const say = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
    say({ baseUrl: sb.baseUrl, key: sb.keys[0], startMs: performance.now() - t0 });
    process.on('SIGUSR2', () => { const u = process.cpuUsage(); say({ cpuMs: (u.user + u.system) / 1000 }); });
    process.on('SIGTERM', async () => { await sb.close(); process.exit(0); });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (buf) => {
      const info = JSON.parse(String(buf));
      const stop = () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM')));
      /** CPU time the sandbox process has used so far (user + system), in ms. */
      const cpuMs = () =>
        new Promise((r) => (child.stdout.once('data', (b) => r(JSON.parse(String(b)).cpuMs)), child.kill('SIGUSR2')));
      resolve({ ...info, stop, cpuMs });
    });
  });
}

let serial = 0; // candidates are new across runs
/**
 * Sends `amount` invites over `connections` keep-alive connections (undici Pool), one request
 * per connection at a time. Resolves with the 2xx count, the failures, the seconds for all and
 * for the last tenth, and whether the limit cut it short.
 */
async function invites(sb, amount) {
  const pool = new Pool(sb.baseUrl, { connections, pipelining: 1 });
  const headers = { 'x-api-key': sb.key, 'content-type': 'application/json' };
  const started = performance.now();
  const deadline = started + limit * 1000;
  const tenth = Math.round(amount * 0.9);
  let sent = 0;
  let ok = 0;
  let bad = 0;
  let atTenth = NaN;
  const worker = async () => {
    while (sent < amount && performance.now() < deadline) {
      sent++;
      const n = ++serial;
      const res = await pool.request({
        path: '/v3/tests/1001/invite',
        method: 'POST',
        headers,
        body: JSON.stringify({ email: `state-${n}@load.test`, name: `Bench ${n}` }),
      });
      await res.body.dump();
      if (res.statusCode >= 200 && res.statusCode < 300) ok++;
      else bad++;
      if (ok + bad === tenth) atTenth = performance.now();
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const ended = performance.now();
  await pool.close();
  return { ok, bad, seconds: (ended - started) / 1000, lastSeconds: (ended - atTenth) / 1000, cut: ok + bad < amount };
}

const WARM_UP = 500;
const rows = [];
let largest = null;
for (const n of sizes) {
  const rates = {};
  for (const mode of ['memory', '--state']) {
    const dir = mode === '--state' ? mkdtempSync(join(tmpdir(), 'assess-bench-state-')) : null;
    const file = dir ? join(dir, 'state.db') : undefined;
    const sb = await startChild(file);
    await invites(sb, WARM_UP); // the JIT warms up on the same sandbox (these count in the state, not in the rate)
    const cpu0 = await sb.cpuMs();
    const r = await invites(sb, n);
    const cpu = (await sb.cpuMs()) - cpu0;
    await sb.stop();
    rates[mode] = {
      all: r.ok / r.seconds,
      last: r.cut ? NaN : (n - Math.round(n * 0.9)) / r.lastSeconds,
      cpu: r.ok / (cpu / 1000),
    };
    rows.push({
      invitations: n,
      state: mode,
      'invites/s (all)': Math.round(rates[mode].all),
      'invites/s (last 10 %)': Number.isNaN(rates[mode].last) ? '—' : Math.round(rates[mode].last),
      'invites per CPU-s': Math.round(rates[mode].cpu),
      seconds: Number(r.seconds.toFixed(1)),
      'non-2xx': r.bad,
      note: r.cut ? `cut at ${limit} s: ${r.ok + r.bad} of ${n} sent` : '',
      'state MB': file ? Number((statSync(file).size / 1e6).toFixed(1)) : '',
    });
    if (dir && n === Math.max(...sizes)) largest = { dir, file };
    else if (dir) rmSync(dir, { recursive: true, force: true });
  }
  const share = (k) => `${Math.round((100 * rates['--state'][k]) / rates.memory[k])} %`;
  rows.at(-1).note ||= `${share('all')} of memory (${share('last')} at the end; ${share('cpu')} per CPU-s)`;
}
console.log(`sandbox --state bench: ${connections} connections, node ${process.version}`);
console.table(rows);
if (largest) {
  const sb = await startChild(largest.file);
  console.log(
    `loading the ${Math.max(...sizes)}-invitation state ` +
      `(${(statSync(largest.file).size / 1e6).toFixed(1)} MB): ${Math.round(sb.startMs)} ms to listening`,
  );
  await sb.stop();
  rmSync(largest.dir, { recursive: true, force: true });
}
