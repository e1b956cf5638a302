// Sandbox throughput on loopback: GET report and POST invite (new candidate per request), with
// state in memory and with a --state file. The sandbox runs in a child process so the load
// generator (autocannon) does not share its event loop. Prints a table.
// The same two requests are also sent to Prism (@stoplight/prism-cli, mock mode, serving
// docs/openapi.json) in the same run, for a side-by-side figure (target ≥ 5× Prism).
// Prism is large (~90 MB, 185 packages): it is not a dependency of the project but of
// bench/prism/ (its own package.json and lockfile), installed there on first use with npm ci.
// NO_PRISM=1 leaves it out.
// The rows marked "assess sandbox serve" run the same sandbox through the built CLI
// (bin/assess.cjs; `npm run build` first), as users start it: with the CLI's V8 flags and code
// cache. The other rows import src/sandbox directly, so they cannot see what the CLI's start-up
// does to a server (a round of the CLI once left its servers without the optimising compiler).
// Run: node bench/sandbox.mjs [seconds=10] [connections=32]
import { build } from 'esbuild';
import autocannon from 'autocannon';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 32);
const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = join(root, 'bench/out/sandbox.mjs');
await build({
  entryPoints: [join(root, 'src/sandbox/index.ts')],
  outfile: bundle,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22.13',
  packages: 'external',
  logLevel: 'warning',
});

// Baseline: a bare fastify route answering {"hello":"world"} on the same machine, same load —
// the ceiling any fastify server reaches here, so the sandbox numbers can be read against it.
const HELLO = `
    const app = (await import('fastify')).default();
    app.get('/hello', async () => ({ hello: 'world' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    process.stdout.write(JSON.stringify({ baseUrl: 'http://127.0.0.1:' + app.server.address().port, key: '' }) + '\\n');
    process.on('SIGTERM', () => process.exit(0));`;

/** Starts the sandbox in a child process; resolves with its base URL, key and a stop function. */
function startChild(stateFile, baseline = false) {
  const code = baseline
    ? HELLO
    : `
    const { startSandbox } = await import(${JSON.stringify(bundle)});
    const sb = await startSandbox({ port: 0, stateFile: ${JSON.stringify(stateFile ?? null)} ?? undefined });
    process.stdout.write(JSON.stringify({ baseUrl: sb.baseUrl, key: sb.keys[0] }) + '\\n');
    process.on('SIGTERM', async () => { await sb.close(); process.exit(0); });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (buf) => {
      const info = JSON.parse(String(buf));
      resolve({ ...info, stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))) });
    });
  });
}

/** `assess sandbox serve` from the build, as a user starts it. */
function startCli() {
  const child = spawn(process.execPath, [join(root, 'bin/assess.cjs'), 'sandbox', 'serve', '--port', '0', '--json'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ASSESS_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'assess-bench-cli-')) },
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (buf) => {
      const info = JSON.parse(String(buf).split('\n')[0]);
      resolve({
        baseUrl: info.baseUrl,
        key: info.keys[0],
        stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGINT'))),
      });
    });
  });
}

const PRISM_DIR = join(root, 'bench/prism');
const PRISM_BIN = join(PRISM_DIR, 'node_modules/.bin/prism');

function freePort() {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Prism in mock mode on the OpenAPI document; resolves once it says it is listening. */
async function startPrism() {
  if (!existsSync(PRISM_BIN)) {
    console.error('installing Prism into bench/prism/ (npm ci, once)…');
    execFileSync('npm', ['ci', '--prefix', PRISM_DIR, '--no-audit', '--no-fund'], { stdio: 'inherit' });
  }
  const port = await freePort();
  // warn level: Prism logs every request at info, which would cost it throughput the sandbox
  // (which logs nothing unless asked) does not pay
  const child = spawn(
    PRISM_BIN,
    ['mock', join(root, 'docs/openapi.json'), '-h', '127.0.0.1', '-p', String(port), '--verboseLevel', 'warn'],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`prism exited ${child.exitCode}`);
    const up = await fetch(`${baseUrl}/v3/tests`, { headers: { 'x-api-key': 'k' } }).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (i > 600) throw new Error('prism did not start in 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    key: 'prism-accepts-any-key',
    stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))),
  };
}

function run(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ duration: seconds, connections, ...opts }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

const cases = [
  { name: 'baseline: bare fastify hello', state: false, baseline: true, req: (sb) => ({ url: `${sb.baseUrl}/hello` }) },
  {
    name: 'GET report (reportType=3)',
    state: false,
    req: (sb) => ({ url: `${sb.baseUrl}/v3/reports/900001?reportType=3`, headers: { 'x-api-key': sb.key } }),
  },
  {
    name: 'GET report, --state file',
    state: true,
    req: (sb) => ({ url: `${sb.baseUrl}/v3/reports/900001?reportType=3`, headers: { 'x-api-key': sb.key } }),
  },
  { name: 'POST invite (new candidate)', state: false, req: inviteReq },
  { name: 'POST invite, --state file', state: true, req: inviteReq },
  {
    name: 'assess sandbox serve: GET report',
    cli: true,
    req: (sb) => ({ url: `${sb.baseUrl}/v3/reports/900001?reportType=3`, headers: { 'x-api-key': sb.key } }),
  },
  { name: 'assess sandbox serve: POST invite', cli: true, req: inviteReq },
];
if (!process.env.NO_PRISM) {
  cases.push(
    {
      name: 'Prism mock: GET report (reportType=3)',
      prism: true,
      req: (sb) => ({ url: `${sb.baseUrl}/v3/reports/900001?reportType=3`, headers: { 'x-api-key': sb.key } }),
    },
    { name: 'Prism mock: POST invite', prism: true, req: inviteReq },
  );
}

function inviteReq(sb) {
  let n = 0;
  return {
    url: `${sb.baseUrl}/v3/tests/1001/invite`,
    method: 'POST',
    headers: { 'x-api-key': sb.key, 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (r) => ({ ...r, body: JSON.stringify({ email: `bench-${++n}@load.test`, name: `Bench ${n}` }) }),
      },
    ],
  };
}

const rows = [];
for (const c of cases) {
  const dir = c.state ? mkdtempSync(join(tmpdir(), 'assess-bench-')) : null;
  const sb = c.prism
    ? await startPrism()
    : c.cli
      ? await startCli()
      : await startChild(dir ? join(dir, 'state.json') : undefined, c.baseline);
  await run({ ...c.req(sb), duration: 2 }); // warm-up
  const res = await run(c.req(sb));
  await sb.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  const bad = res.non2xx + res.errors + res.timeouts;
  rows.push({
    case: c.name,
    'req/s (mean)': Math.round(res.requests.average),
    'latency p50 ms': res.latency.p50,
    'latency p99 ms': res.latency.p99,
    requests: res.requests.total,
    'non-2xx/errors': bad,
  });
}
console.log(`sandbox bench: ${seconds}s per case, ${connections} connections, node ${process.version}`);
console.table(rows);
const rate = (name) => rows.find((r) => r.case === name)?.['req/s (mean)'];
for (const [ours, theirs] of [
  ['GET report (reportType=3)', 'Prism mock: GET report (reportType=3)'],
  ['POST invite (new candidate)', 'Prism mock: POST invite'],
])
  if (rate(theirs)) console.log(`${ours}: ${(rate(ours) / rate(theirs)).toFixed(1)}× Prism (target ≥ 5×)`);
