// `node bench/bulk.mjs memory [rows=2000,20000,50000] [resume=100000]`: peak memory of `invite
// --from-csv` by row count, in the one process the user starts (target: ≤ 300 MiB at 50,000
// rows), against a sandbox without latency (the fastest, so the most garbage a second); then bulk
// resume at `resume` rows: a run killed half-way resumed, and a re-run with every row done (the
// cost of resuming alone: both passes over the CSV, a journal look-up per row, every row skipped).
// Peaks are VmHWM, read from /proc every 50 ms (the peak only grows). The journal is in the
// profile's store (SQLite) of a config dir of the bench's own.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = process.env.ASSESS_BIN ?? join(ROOT, 'bin/assess.cjs');
const sizes = (process.argv[3] ?? '2000,20000,50000').split(',').map(Number);
const resumeRows = Number(process.argv[4] ?? 100_000);
const work = mkdtempSync(join(tmpdir(), 'assess-bench-memory-'));
const config = join(work, 'config');

const sb = await new Promise((res, rej) => {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--json'], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, ASSESS_CONFIG_DIR: join(work, 'sandbox-config') },
  });
  child.stdout.setEncoding('utf8').once('data', (line) => res({ child, ...JSON.parse(line) }));
  child.once('error', rej);
});
const env = {
  ...process.env,
  ASSESS_BASE_URL: sb.baseUrl,
  ASSESS_API_KEY: sb.keys[0],
  ASSESS_CONFIG_DIR: config,
  CI: 'true',
};

const hwm = (pid) => {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return undefined;
  }
};

/** Rows done in the journal of `csv` (read from the store, as a test does). */
function doneRows(csv) {
  try {
    const db = new DatabaseSync(join(config, 'store', 'default.db'), { timeout: 10_000 });
    try {
      const row = db
        .prepare(
          "SELECT count(*) AS n FROM run_item JOIN run ON run.id = run_item.run WHERE run.name = ? AND state = 'done'",
        )
        .get(`1001 ${csv}`);
      return Number(row.n);
    } finally {
      db.close();
    }
  } catch {
    return 0; // the store or its tables are not there yet
  }
}

let runs = 0;
function csvOf(n) {
  const tag = `m${++runs}-`;
  const csv = join(work, `${tag}.csv`);
  let text = 'email,name\n';
  for (let i = 0; i < n; i++) text += `${tag}${i}@bench.example,Bench ${i}\n`;
  writeFileSync(csv, text);
  return csv;
}

/** One `invite --from-csv` run: seconds and peak MiB; `killAt` rows done: SIGKILL there. */
function invite(csv, killAt) {
  return new Promise((res, rej) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, 'invite', '1001', '--from-csv', csv, '--json'], {
      stdio: 'ignore',
      env,
    });
    let peak = 0;
    let polls = 0;
    const sample = setInterval(() => {
      peak = Math.max(peak, hwm(child.pid) ?? 0);
      if (killAt && ++polls % 10 === 0 && doneRows(csv) >= killAt) child.kill('SIGKILL');
    }, 50);
    child.once('exit', (code, signal) => {
      clearInterval(sample);
      if (code !== 0 && !(killAt && signal === 'SIGKILL')) rej(new Error(`invite of ${csv} exited ${code ?? signal}`));
      else res({ secs: (performance.now() - started) / 1000, peak });
    });
  });
}

const rows = [];
const resume = [];
const load = [loadavg()[0]];
try {
  for (const n of sizes) {
    rows.push({ n, ...(await invite(csvOf(n))) });
    load.push(loadavg()[0]);
  }
  if (resumeRows > 0) {
    const csv = csvOf(resumeRows);
    const killed = await invite(csv, resumeRows / 2);
    const left = doneRows(csv);
    resume.push({ what: `killed at ${left.toLocaleString('en')} done`, ...killed });
    resume.push({
      what: `resumed: ${(resumeRows - left).toLocaleString('en')} sent, the rest skipped`,
      ...(await invite(csv)),
    });
    resume.push({ what: 'run again: every row done (resuming alone)', ...(await invite(csv)) });
    load.push(loadavg()[0]);
  }
} finally {
  sb.child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
console.log(`${new Date().toISOString()} · node ${process.version} · sandbox without latency`);
console.log(`load average (1 min) during the run: ${Math.min(...load).toFixed(2)}–${Math.max(...load).toFixed(2)}\n`);
console.log('| rows | peak MiB | s | rows/s |');
console.log('|---:|---:|---:|---:|');
for (const { n, peak, secs } of rows)
  console.log(`| ${n.toLocaleString('en')} | ${peak.toFixed(0)} | ${secs.toFixed(1)} | ${(n / secs).toFixed(0)} |`);
if (resume.length) {
  console.log(`\nresume at ${resumeRows.toLocaleString('en')} rows:\n`);
  console.log('| run | peak MiB | s |');
  console.log('|---|---:|---:|');
  for (const r of resume) console.log(`| ${r.what} | ${r.peak.toFixed(0)} | ${r.secs.toFixed(1)} |`);
}
