// Chaos benchmark: `assess invite --csv` of many rows against a sandbox injecting
// ~20 % faults (5xx, 429, resets; half of the 5xx and resets after the state change). Prints the
// faults injected by kind, the client's retries (requests the sandbox saw minus rows),
// duplicates and missing invitations (both must be 0), wall time and peak RSS (/usr/bin/time -v).
// Build first: npm run build.
//   node bench/chaos.mjs [rows=10000] [faults spec] [concurrency=8]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** A Markdown table row. */
const row = (cells) => `| ${cells.join(' | ')} |`;

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/assess.cjs');
const rows = Number(process.argv[2] ?? 10000);
// The statuses the client retries (a 500 is final by policy); Retry-After 0.1 s, because every
// 429 holds the whole pool for Retry-After and 300 holds of 1 s would dominate the run.
const spec =
  process.argv[3] ??
  '502=0.04,503=0.04,504=0.02,429=0.03,reset=0.05,truncate=0.02,after=0.5,retryAfter=0.1,latency=0ms..2ms,seed=42';
const concurrency = process.argv[4] ?? '8';
const work = mkdtempSync(join(tmpdir(), 'assess-bench-chaos-'));

function startSandbox() {
  return new Promise((resolveStart, reject) => {
    const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--json', '--faults', spec], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, ASSESS_CONFIG_DIR: work },
    });
    child.stdout.setEncoding('utf8').once('data', (line) => resolveStart({ child, ...JSON.parse(line) }));
    child.once('error', reject);
  });
}

const sb = await startSandbox();
const env = {
  ...process.env,
  ASSESS_BASE_URL: sb.baseUrl,
  ASSESS_API_KEY: sb.keys[0],
  ASSESS_CONFIG_DIR: work,
  CI: 'true',
};
const control = async (method, path) => (await fetch(`${sb.baseUrl}/_sandbox${path}`, { method })).json();
let result;
try {
  // 10 attempts per request: at 20 % faults, 4 attempts fail a row with chance 0.2^4 = 1/625.
  execFileSync(process.execPath, [BIN, 'config', 'set', 'retries', '10'], { env, stdio: 'ignore' });
  const csv = join(work, 'chaos.csv');
  let text = 'email,name\n';
  for (let i = 0; i < rows; i++) text += `c${i}@chaos-bench.example,Chaos ${i}\n`;
  writeFileSync(csv, text);

  const timeFile = join(work, 'time.txt');
  const started = process.hrtime.bigint();
  let exit = 0;
  try {
    execFileSync(
      '/usr/bin/time',
      ['-v', '-o', timeFile, process.execPath, BIN, 'invite', '1001', '--csv', csv, '--concurrency', concurrency],
      {
        env,
        stdio: 'ignore',
      },
    );
  } catch (e) {
    exit = e.status;
  }
  const secs = Number(process.hrtime.bigint() - started) / 1e9;
  const rssMb =
    Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(readFileSync(timeFile, 'utf8'))?.[1] ?? NaN) / 1024;

  const { counters } = await control('GET', '/faults');
  const invs = (await control('GET', '/invitations')).invitations.filter((i) =>
    i.email.endsWith('@chaos-bench.example'),
  );
  const emails = new Set(invs.map((i) => i.email));
  const results = readFileSync(`${csv}.results.ndjson`, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  result = {
    exit,
    secs,
    rssMb,
    counters,
    duplicates: invs.length - emails.size,
    missing: rows - emails.size,
    failedRows: results.filter((r) => r.outcome !== 'invited').length,
  };
} finally {
  sb.child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}

const { counters: c } = result;
const kinds = Object.entries(c.injected)
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([k, n]) => `${k}: ${n.before}+${n.after}`)
  .join(', ');
console.log(`node ${process.version}, faults ${spec}, concurrency ${concurrency}\n`);
console.log(
  '| rows | requests seen | faults injected (before+after) | retries | failed rows | duplicates | missing | exit | ' +
    'wall s | peak RSS MB |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
console.log(
  row([
    rows,
    c.requests,
    `${c.total} (${((c.total / c.requests) * 100).toFixed(1)} %): ${kinds}`,
    c.requests - rows,
    result.failedRows,
    result.duplicates,
    result.missing,
    result.exit,
    result.secs.toFixed(1),
    result.rssMb.toFixed(0),
  ]),
);
