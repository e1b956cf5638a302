// `node bench/bulk.mjs memory [rows=2000,20000,50000]`: peak memory of `invite --from-csv` by row
// count (issue 30: flat within ±15 % from 2,000 to 50,000 rows), against a sandbox without latency
// (the fastest, so the most garbage a second). A bulk run is two processes (src/cli/bulk-child.ts):
// each one's peak (VmHWM, read from /proc every 50 ms; the peak only grows) and their sum, an upper
// bound of the pair's peak. Each size runs in one process too (ASSESS_BULK_CHILD=off), alternating.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = process.env.ASSESS_BIN ?? join(ROOT, 'bin/assess.cjs');
const sizes = (process.argv[3] ?? '2000,20000,50000').split(',').map(Number);
const work = mkdtempSync(join(tmpdir(), 'assess-bench-memory-'));

const sb = await new Promise((res, rej) => {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--json'], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, ASSESS_CONFIG_DIR: work },
  });
  child.stdout.setEncoding('utf8').once('data', (line) => res({ child, ...JSON.parse(line) }));
  child.once('error', rej);
});
const env = {
  ...process.env,
  ASSESS_BASE_URL: sb.baseUrl,
  ASSESS_API_KEY: sb.keys[0],
  ASSESS_CONFIG_DIR: work,
  CI: 'true',
};

const hwm = (pid) => {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return undefined;
  }
};
const kids = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

let run = 0;
/** One `invite --from-csv` of n new rows: seconds, peaks (MiB) of the started process and its child. */
function invite(n, extraEnv) {
  const tag = `m${++run}-`;
  const csv = join(work, `${tag}.csv`);
  let text = 'email,name\n';
  for (let i = 0; i < n; i++) text += `${tag}${i}@bench.example,Bench ${i}\n`;
  writeFileSync(csv, text);
  return new Promise((res, rej) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, 'invite', '1001', '--from-csv', csv, '--json'], {
      stdio: 'ignore',
      env: { ...env, ...extraEnv },
    });
    const peak = { self: 0, child: 0 };
    const sample = setInterval(() => {
      peak.self = Math.max(peak.self, hwm(child.pid) ?? 0);
      for (const k of kids(child.pid)) peak.child = Math.max(peak.child, hwm(k) ?? 0);
    }, 50);
    child.once('exit', (code) => {
      clearInterval(sample);
      if (code !== 0) rej(new Error(`invite of ${n} rows exited ${code}`));
      else res({ secs: (performance.now() - started) / 1000, ...peak });
    });
  });
}

const rows = [];
const load = [loadavg()[0]];
try {
  for (const n of sizes) {
    const two = await invite(n, {});
    const one = await invite(n, { ASSESS_BULK_CHILD: 'off' });
    rows.push({ n, two, one });
    load.push(loadavg()[0]);
  }
} finally {
  sb.child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
console.log(`${new Date().toISOString()} · node ${process.version} · sandbox without latency`);
console.log(`load average (1 min) during the run: ${Math.min(...load).toFixed(2)}–${Math.max(...load).toFixed(2)}\n`);
console.log(
  '| rows | child peak MiB | started process MiB | sum MiB | s | one process (ASSESS_BULK_CHILD=off) MiB | s |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|');
const f = (x) => x.toFixed(0);
for (const { n, two, one } of rows)
  console.log(
    `| ${n.toLocaleString('en')} | ${f(two.child)} | ${f(two.self)} | ${f(two.child + two.self)} | ${two.secs.toFixed(1)} | ${f(one.self)} | ${one.secs.toFixed(1)} |`,
  );
const sums = rows.map((r) => r.two.child + r.two.self);
console.log(
  `\nsum from ${sizes[0]} to ${sizes.at(-1)} rows: ${(((sums.at(-1) - sums[0]) / sums[0]) * 100).toFixed(1)} % (target ±15 %)`,
);
