// Sandbox throughput on loopback: GET report and POST invite (new candidate per request), with
// state in memory and with a --state file. The sandbox runs in a child process so the load
// generator (autocannon) does not share its event loop. Prints a table.
// Run: node bench/sandbox.mjs [seconds=10] [connections=32]
import { build } from 'esbuild';
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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
  target: 'node20',
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
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (buf) => {
      const info = JSON.parse(String(buf));
      resolve({ ...info, stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))) });
    });
  });
}

function run(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ duration: seconds, connections, ...opts }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

const cases = [
  { name: 'baseline: bare fastify hello', state: false, baseline: true, req: (sb) => ({ url: `${sb.baseUrl}/hello` }) },
  { name: 'GET report (reportType=3)', state: false, req: (sb) => ({ url: `${sb.baseUrl}/v3/reports/900001?reportType=3`, headers: { 'x-api-key': sb.key } }) },
  { name: 'GET report, --state file', state: true, req: (sb) => ({ url: `${sb.baseUrl}/v3/reports/900001?reportType=3`, headers: { 'x-api-key': sb.key } }) },
  { name: 'POST invite (new candidate)', state: false, req: inviteReq },
  { name: 'POST invite, --state file', state: true, req: inviteReq },
];

function inviteReq(sb) {
  let n = 0;
  return {
    url: `${sb.baseUrl}/v3/tests/1001/invite`,
    method: 'POST',
    headers: { 'x-api-key': sb.key, 'content-type': 'application/json' },
    requests: [{ setupRequest: (r) => ({ ...r, body: JSON.stringify({ email: `bench-${++n}@load.test`, name: `Bench ${n}` }) }) }],
  };
}

const rows = [];
for (const c of cases) {
  const dir = c.state ? mkdtempSync(join(tmpdir(), 'assess-bench-')) : null;
  const sb = await startChild(dir ? join(dir, 'state.json') : undefined, c.baseline);
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
