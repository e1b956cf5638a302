// Bulk benchmarks (issue 6): `invite --csv` and `report export --pdf` against the sandbox with
// 5 ms artificial latency, each compared with the same requests sent by `xargs -P 8 curl`.
// Peak RSS of the CLI comes from /usr/bin/time -v. Build first: npm run build.
//   node bench/bulk.mjs [inviteRows=5000] [bigRows=50000] [exportReports=1000]
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/assess.js');
const [inviteRows = 5000, bigRows = 50000, exportReports = 1000] = process.argv.slice(2).map(Number);
const work = mkdtempSync(join(tmpdir(), 'assess-bench-bulk-'));

function startSandbox() {
  return new Promise((resolveStart, reject) => {
    const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--json', '--latency', '5ms'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, ASSESS_CONFIG_DIR: work },
    });
    child.stdout.setEncoding('utf8').once('data', (line) => resolveStart({ child, ...JSON.parse(line) }));
    child.once('error', reject);
  });
}

/** Wall seconds and peak RSS (MB) of one CLI run, from /usr/bin/time -v. */
function timeCliRss(args, env) {
  const started = process.hrtime.bigint();
  const r = spawnSyncTime(args, env);
  const secs = Number(process.hrtime.bigint() - started) / 1e9;
  const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r)?.[1] ?? NaN);
  return { secs, rssMb: kb / 1024 };
}
function spawnSyncTime(args, env) {
  try {
    execFileSync('/usr/bin/time', ['-v', '-o', join(work, 'time.txt'), process.execPath, BIN, ...args], { env: { ...process.env, ...env }, stdio: 'ignore' });
  } catch (e) {
    throw new Error(`assess ${args.join(' ')} failed (${e.status})`);
  }
  return execFileSync('cat', [join(work, 'time.txt')]).toString();
}

function timeShell(script, env) {
  const started = process.hrtime.bigint();
  execFileSync('bash', ['-c', script], { env: { ...process.env, ...env }, stdio: 'ignore' });
  return Number(process.hrtime.bigint() - started) / 1e9;
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
  };
  for (let i = 0; i < n; i += 32) await Promise.all(Array.from({ length: Math.min(32, n - i) }, (_, j) => one(i + j)));
}

const rows = [];
const sb = await startSandbox();
const env = { ASSESS_BASE_URL: sb.baseUrl, ASSESS_API_KEY: sb.keys[0], ASSESS_CONFIG_DIR: work, CI: 'true' };
try {
  // Invite: the CLI and curl each create `inviteRows` new invitations.
  const cli = timeCliRss(['invite', '1001', '--csv', csvFile('cli.csv', inviteRows, 'cli')], env);
  const bodies = join(work, 'bodies');
  mkdirSync(bodies);
  for (let i = 0; i < inviteRows; i++)
    writeFileSync(join(bodies, String(i)), JSON.stringify({ email: `curl${i}@bench.example`, name: `Bench curl ${i}`, sendEmail: 'no' }));
  const curl = timeShell(
    `ls "${bodies}" | xargs -P 8 -I{} curl -s -o /dev/null -X POST -H "X-API-KEY: $ASSESS_API_KEY" -H 'content-type: application/json' --data @"${bodies}/{}" "$ASSESS_BASE_URL/v3/tests/1001/invite"`,
    env,
  );
  rows.push([`invite ${inviteRows} rows`, cli.secs, curl, cli.rssMb]);
  const big = timeCliRss(['invite', '1001', '--csv', csvFile('big.csv', bigRows, 'big')], env);
  rows.push([`invite ${bigRows} rows`, big.secs, NaN, big.rssMb]);

  // Export: `exportReports` completed attempts, report JSON + PDF each.
  await completeAttempts(sb, exportReports);
  // the sandbox renders each finished attempt's PDF in the background (as the service generates
  // its report when the attempt ends): export once those are done, as a nightly job would
  for (;;) {
    const q = await (await fetch(`${sb.baseUrl}/_sandbox/reports`)).json();
    if (!q.pdfQueue && !q.pdfRendering) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const out = join(work, 'export-cli');
  const ex = timeCliRss(['report', 'export', '--state', 'completed', '--from', '1d', '--to', '+1h', '--out', out, '--pdf'], env);
  const curlOut = join(work, 'export-curl');
  mkdirSync(curlOut);
  const curlEx = timeShell(
    `curl -s -X POST -H "X-API-KEY: $ASSESS_API_KEY" -H 'content-type: application/json' -d '{"StartDateTime":"2000-01-01T00:00:00Z","EndDateTime":"2100-01-01T00:00:00Z"}' "$ASSESS_BASE_URL/v3/candidates/testattempts?state=completed" ` +
      `| node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).result.testAttempts.map(a=>a.testInvitationId).join("\\n")))' ` +
      `| xargs -P 8 -I{} sh -c 'curl -s -H "X-API-KEY: $ASSESS_API_KEY" "$ASSESS_BASE_URL/v3/reports/{}?reportType=1" -o "${curlOut}/{}.json" && curl -s -H "X-API-KEY: $ASSESS_API_KEY" "$ASSESS_BASE_URL/v3/reports/{}/pdf" -o "${curlOut}/{}.pdf"'`,
    env,
  );
  rows.push([`export ${exportReports} reports + PDFs`, ex.secs, curlEx, ex.rssMb]);
} finally {
  sb.child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}

const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '–');
console.log('| case | assess (s) | xargs -P 8 curl (s) | speed-up | assess peak RSS (MB) |');
console.log('|---|---|---|---|---|');
for (const [name, a, c, rss] of rows)
  console.log(`| ${name} | ${fmt(a)} | ${fmt(c)} | ${Number.isFinite(c) ? `${(c / a).toFixed(1)}×` : '–'} | ${fmt(rss, 0)} |`);
