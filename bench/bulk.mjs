// Bulk benchmarks (issues 6, 16): `invite --csv` and `report export --pdf` against
// `sandbox serve --latency L`, each compared with the same requests sent by ONE curl process in
// parallel mode (`curl -Z --parallel-max 8 -K cfg`: keep-alive connections, no process per
// request), and by bench/undici-floor.mjs (undici's Pool and nothing else: the floor for a Node
// client). With concurrency 8 and latency L the bound is 8 × 1000/L requests/s; the table gives
// each side's share of it. Peak RSS from /usr/bin/time. Build first: npm run build.
//   node bench/bulk.mjs [inviteRows=2000,20000] [exportReports=1000] [latencyMs=20]
// Under a rate limit: `sandbox serve --rate-limit L/s` (a token bucket, no Retry-After,
// as the vendor), 20 ms latency; per limit, `invite --from-csv` of L × seconds rows by this build
// (the adaptive pace), by BASELINE_BIN (today's fixed-concurrency client: a build of main) and by
// `curl -Z --parallel-max 8 --retry 30 --retry-delay 1`. Goodput (rows a second over the limit),
// 429s (the sandbox's counters) and rows invited exactly once (its invitations).
//   node bench/bulk.mjs limits [limits=10,25,100] [seconds=40]   (BASELINE_BIN=/path/to/bin/assess.cjs)
// Memory by row count and bulk resume (bench/bulk-memory.mjs):
//   node bench/bulk.mjs memory [rows=2000,20000,50000] [resume=100000]
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** A Markdown table row. */
const row = (cells) => `| ${cells.join(' | ')} |`;

const ROOT = resolve(import.meta.dirname, '..');
const BIN = process.env.ASSESS_BIN ?? join(ROOT, 'bin/assess.cjs');
if (process.argv[2] === 'limits' || process.argv[2] === 'memory') {
  await import(process.argv[2] === 'limits' ? './bulk-limits.mjs' : './bulk-memory.mjs');
  process.exit(0);
}
const inviteRows = (process.argv[2] ?? '2000,20000').split(',').map(Number);
const exportReports = Number(process.argv[3] ?? 1000);
const latencyMs = Number(process.argv[4] ?? 20);
const CONCURRENCY = 8;
const perSec = (CONCURRENCY * 1000) / latencyMs;
const work = mkdtempSync(join(tmpdir(), 'assess-bench-bulk-'));

function startSandbox() {
  return new Promise((resolveStart, reject) => {
    const child = spawn(
      process.execPath,
      [join(ROOT, 'bin/assess.cjs'), 'sandbox', 'serve', '--port', '0', '--json', '--latency', `${latencyMs}ms`],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
        env: { ...process.env, ASSESS_CONFIG_DIR: work },
      },
    );
    child.stdout.setEncoding('utf8').once('data', (line) => resolveStart({ child, ...JSON.parse(line) }));
    child.once('error', reject);
  });
}

/** Wall seconds and peak RSS (MiB) of one command under /usr/bin/time. */
function timed(file, args, env) {
  const out = join(work, 'time.txt');
  const started = process.hrtime.bigint();
  try {
    execFileSync('/usr/bin/time', ['-f', '%M', '-o', out, file, ...args], {
      env: { ...process.env, ...env },
      stdio: 'ignore',
    });
  } catch (e) {
    throw new Error(`${file} ${args.join(' ')} failed (${e.status})`);
  }
  const secs = Number(process.hrtime.bigint() - started) / 1e9;
  return { secs, rss: Number(readFileSync(out, 'utf8').trim().split('\n').pop()) / 1024 };
}
const cli = (args, env) => timed(process.execPath, [BIN, ...args], env);
/** One curl process, CONCURRENCY transfers at a time over reused connections. */
const curl = (cfg, env) => timed('curl', ['-sS', '-Z', '--parallel-max', String(CONCURRENCY), '-K', cfg], env);

/** The same requests through bench/undici-floor.mjs: the floor for a Node client. */
function undiciFloor(name, requests, env) {
  const path = join(work, `${name}.ndjson`);
  writeFileSync(path, requests.map((r) => JSON.stringify(r)).join('\n'));
  return timed(process.execPath, [join(ROOT, 'bench/undici-floor.mjs'), path], env);
}

/** A curl config: one block per request, `next` between them (options are per transfer). */
function curlConfig(name, requests) {
  const q = (s) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const blocks = requests.map((r) =>
    [
      `url = ${q(r.url)}`,
      ...(r.method ? [`request = ${r.method}`] : []),
      ...r.headers.map((h) => `header = ${q(h)}`),
      ...(r.data ? [`data = ${q(r.data)}`] : []),
      `output = ${q(r.output ?? '/dev/null')}`,
    ].join('\n'),
  );
  const path = join(work, name);
  writeFileSync(path, blocks.join('\nnext\n'));
  return path;
}

function csvFile(name, rows, tag) {
  const path = join(work, name);
  let text = 'email,name\n';
  for (let i = 0; i < rows; i++) text += `${tag}${i}@bench.example,Bench ${tag} ${i}\n`;
  writeFileSync(path, text);
  return path;
}

async function completeAttempts(sb, n) {
  const key = sb.keys[0];
  const one = async (i) => {
    const res = await fetch(`${sb.baseUrl}/v3/tests/1001/invite`, {
      method: 'POST',
      headers: { 'X-API-KEY': key, 'content-type': 'application/json' },
      body: JSON.stringify({ email: `done${i}@bench.example`, name: `Done ${i}` }),
    });
    const { testInvitationId } = await res.json();
    await fetch(`${sb.baseUrl}/_sandbox/invitations/${testInvitationId}/simulate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: 'complete', score: (i * 37) % 100 }),
    });
    return testInvitationId;
  };
  const ids = [];
  for (let i = 0; i < n; i += 32)
    ids.push(...(await Promise.all(Array.from({ length: Math.min(32, n - i) }, (_, j) => one(i + j)))));
  return ids;
}

const rows = [];
const load = [loadavg()[0]];
const sb = await startSandbox();
const env = { ASSESS_BASE_URL: sb.baseUrl, ASSESS_API_KEY: sb.keys[0], ASSESS_CONFIG_DIR: work, CI: 'true' };
const auth = [`X-API-KEY: ${sb.keys[0]}`];
try {
  for (const n of inviteRows) {
    // each side creates n new invitations (new e-mails), one request per row
    const a = cli(['invite', '1001', '--csv', csvFile(`cli${n}.csv`, n, `cli${n}-`)], env);
    const requests = (tag) =>
      Array.from({ length: n }, (_, i) => ({
        url: `${sb.baseUrl}/v3/tests/1001/invite`,
        method: 'POST',
        headers: [...auth, 'content-type: application/json'],
        data: JSON.stringify({ email: `${tag}${n}-${i}@bench.example`, name: `Bench ${tag} ${i}`, sendEmail: 'no' }),
      }));
    const c = curl(curlConfig(`invite${n}.cfg`, requests('curl')), env);
    const u = undiciFloor(`invite${n}`, requests('undici'), env);
    rows.push({ name: `invite ${n} rows`, requests: n, a, c, u });
    load.push(loadavg()[0]);
  }

  // Export: `exportReports` completed attempts, report JSON + PDF each (plus one list request).
  const ids = await completeAttempts(sb, exportReports);
  // the sandbox renders each finished attempt's PDF in the background (as the service generates
  // its report when the attempt ends): export once those are done, as a nightly job would
  for (;;) {
    const q = await (await fetch(`${sb.baseUrl}/_sandbox/reports`)).json();
    if (!q.pdfQueue && !q.pdfRendering) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const a = cli(
    [
      'report',
      'export',
      '--state',
      'completed',
      '--from',
      '1d',
      '--to',
      '+1h',
      '--out',
      join(work, 'export-cli'),
      '--pdf',
    ],
    env,
  );
  const curlOut = join(work, 'export-curl');
  mkdirSync(curlOut);
  const exportRequests = (out) => [
    {
      url: `${sb.baseUrl}/v3/candidates/testattempts?state=completed`,
      method: 'POST',
      headers: [...auth, 'content-type: application/json'],
      data: JSON.stringify({ StartDateTime: '2000-01-01T00:00:00Z', EndDateTime: '2100-01-01T00:00:00Z' }),
      output: join(out, 'list.json'),
    },
    ...ids.flatMap((id) => [
      { url: `${sb.baseUrl}/v3/reports/${id}?reportType=1`, headers: auth, output: join(out, `${id}.json`) },
      { url: `${sb.baseUrl}/v3/reports/${id}/pdf`, headers: auth, output: join(out, `${id}.pdf`) },
    ]),
  ];
  // (curl and the undici floor are handed the ids up front: they do not wait for the list as the
  // CLI does, a head start)
  const c = curl(curlConfig('export.cfg', exportRequests(curlOut)), env);
  const undiciOut = join(work, 'export-undici');
  mkdirSync(undiciOut);
  const u = undiciFloor('export', exportRequests(undiciOut), env);
  rows.push({ name: `export ${exportReports} reports + PDFs`, requests: 2 * exportReports + 1, a, c, u });
  load.push(loadavg()[0]);
} finally {
  sb.child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}

console.log(
  `${new Date().toISOString()} · node ${process.version} · latency ${latencyMs} ms · concurrency ` +
    `${CONCURRENCY} · bound ${perSec} req/s`,
);
console.log(`load average (1 min) during the run: ${Math.min(...load).toFixed(2)}–${Math.max(...load).toFixed(2)}\n`);
console.log(
  '| case | bound (s) | assess (s) | % of bound | curl -Z (s) | % of bound | undici floor (s) | % of bound | assess ' +
    'vs curl | assess peak RSS (MiB) | curl peak RSS (MiB) | undici floor RSS (MiB) |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  const bound = r.requests / perSec;
  const pct = (s) => `${((100 * bound) / s).toFixed(0)} %`;
  console.log(
    row([
      r.name,
      bound.toFixed(2),
      r.a.secs.toFixed(2),
      pct(r.a.secs),
      r.c.secs.toFixed(2),
      pct(r.c.secs),
      r.u.secs.toFixed(2),
      pct(r.u.secs),
      `${(r.c.secs / r.a.secs).toFixed(2)}×`,
      r.a.rss.toFixed(0),
      r.c.rss.toFixed(0),
      r.u.rss.toFixed(0),
    ]),
  );
}
