// Per-command latency against the Node floor. For each command, paired runs: the
// command and its floor script alternate (A B A B …) so background load on this shared machine
// hits both sides alike; medians of wall time (spawn to exit) and of peak RSS (/usr/bin/time %M).
//   node bench/latency.mjs [pairs=15] [rows]   (build first: npm run build; rows: a regex of labels)
//   ASSESS_BIN=/other/build/bin/assess.cjs node bench/latency.mjs   (measure another build)
// With the standalone executable built (`npm run package`; ASSESS_STANDALONE names another),
// rows marked "standalone:" run it (no node: it is Node itself plus the program) beside the same
// commands of the npm-installed CLI.
// One-request commands are compared with floor/http-get.mjs (node:http, one GET, print the
// JSON): target ≤ 1.8× and ≤ 96 MiB. Commands that send nothing: `node -e 0`, target ≤ 2.5×;
// help pages (they build a noun's whole subtree, or every noun's for `assess --help`) ≤ 3×.
// Run it with the Node to measure (`$(.ci/node 24) bench/latency.mjs`): Node's compile cache
// is warm after the first run of each row.
// "spread" is the middle half (25th–75th percentile) of the pairs' own ratios. Where `perf` works,
// each run's CPU time (task-clock: user + system, all threads) is taken too: on a loaded machine
// wall time mostly measures the wait for a core, CPU time what the process itself did.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = process.env.ASSESS_BIN ?? join(ROOT, 'bin/assess.cjs');
const STANDALONE = process.env.ASSESS_STANDALONE ?? join(ROOT, 'dist/standalone/assess-linux-x64');
const pairs = Number(process.argv[2] ?? 15);
const only = process.argv[3] ? new RegExp(process.argv[3]) : undefined; // rows whose label it matches
const work = mkdtempSync(join(tmpdir(), 'assess-bench-latency-'));
const FLOOR_HTTP = ['floor: node:http GET', [join(ROOT, 'bench/floor/http-get.mjs')]];
const FLOOR_NODE = ['node -e 0', ['-e', '0']];

// The stack's floors (bench/floor/cli-*.mjs), built like ours: CommonJS, whitespace and syntax
// minified, undici a bundle apart loaded on the request, started through Node's compile cache.
const cliFloor = join(work, 'cli-floor');
const floorBuild = { bundle: true, platform: 'node', format: 'cjs', minifyWhitespace: true, minifySyntax: true };
const undiciApart = {
  name: 'undici-apart',
  setup: (b) => b.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.cjs', external: true })),
};
for (const name of ['cli-usage-error', 'cli-request'])
  await build({
    ...floorBuild,
    entryPoints: [join(ROOT, `bench/floor/${name}.mjs`)],
    outfile: join(cliFloor, `${name}.cjs`),
    supported: { 'dynamic-import': false },
    plugins: [undiciApart],
    logLevel: 'warning',
  });
await build({
  ...floorBuild,
  stdin: { contents: "module.exports = require('undici');", resolveDir: ROOT },
  outfile: join(cliFloor, 'undici.cjs'),
  logLevel: 'warning',
});
const floorEntry = (name) => {
  const file = join(cliFloor, `${name}-entry.cjs`);
  writeFileSync(file, `require('node:module').enableCompileCache();\nrequire('./${name}.cjs');\n`);
  return file;
};
const usageFloor = floorEntry('cli-usage-error');
const requestFloor = floorEntry('cli-request');

const sb = spawn(process.execPath, [join(ROOT, 'bin/assess.cjs'), 'sandbox', 'serve', '--port', '0', '--json'], {
  stdio: ['ignore', 'pipe', 'ignore'],
  env: { ...process.env, ASSESS_CONFIG_DIR: work },
});
const info = await new Promise((r, j) => {
  sb.stdout.setEncoding('utf8').once('data', (line) => r(JSON.parse(line)));
  sb.once('error', j);
});
const env = {
  ...process.env,
  ASSESS_BASE_URL: info.baseUrl,
  ASSESS_API_KEY: info.keys[0],
  ASSESS_CONFIG_DIR: work,
  CI: 'true',
  NO_COLOR: '1',
};
const noKey = { ...env, ASSESS_API_KEY: '' };
delete noKey.ASSESS_API_KEY;

// `attempts cancel` changes state: one fresh invitation per run.
const cancelIds = [];
for (let i = 0; i < 2 * pairs + 2; i++) {
  const res = await fetch(`${info.baseUrl}/v3/tests/1001/invite`, {
    method: 'POST',
    headers: { 'X-API-KEY': info.keys[0], 'content-type': 'application/json' },
    body: JSON.stringify({ email: `cancel${i}@bench.example`, name: `Cancel ${i}` }),
  });
  cancelIds.push(String((await res.json()).testInvitationId));
}

const assess = (...args) => [BIN, ...args];
const standalone = (...args) => [STANDALONE, ...args];
const cases = [
  ['--version', () => assess('--version'), env, 0, FLOOR_NODE, 2.5],
  // [label, argv (function of run index), env, expected exit, floor, ratio target]
  ['tests get 1001 --json', () => assess('tests', 'get', '1001', '--json'), env, 0, FLOOR_HTTP, 1.8],
  ['report 900001 --json', () => assess('report', '900001', '--json'), env, 0, FLOOR_HTTP, 1.8],
  [
    'invite 1001 --email … --json',
    () => assess('invite', '1001', '--email', 'bench@example.com', '--name', 'Bench', '--json'),
    env,
    0,
    FLOOR_HTTP,
    1.8,
  ],
  [
    'attempts cancel ID --yes --json',
    (i) => assess('attempts', 'cancel', cancelIds[i], '--yes', '--json'),
    env,
    0,
    FLOOR_HTTP,
    1.8,
  ],
  ['links list 1001 --json', () => assess('links', 'list', '1001', '--json'), env, 0, FLOOR_HTTP, 1.8],
  ['config list', () => assess('config', 'list'), env, 0, FLOOR_NODE, 2.5],
  ['auth status (no key)', () => assess('auth', 'status'), noKey, 3, FLOOR_NODE, 2.5],
  ['usage error: tests get abc', () => assess('tests', 'get', 'abc'), env, 2, FLOOR_NODE, 2.5],
  // a usage error of every noun
  ['usage error: links get 1001 abc', () => assess('links', 'get', '1001', 'abc'), env, 2, FLOOR_NODE, 2.5],
  ['usage error: invite 1001 --email nope', () => assess('invite', '1001', '--email', 'nope'), env, 2, FLOOR_NODE, 2.5],
  ['usage error: report abc', () => assess('report', 'abc'), env, 2, FLOOR_NODE, 2.5],
  [
    'usage error: attempts list --state nope',
    () => assess('attempts', 'list', '--state', 'nope'),
    env,
    2,
    FLOOR_NODE,
    2.5,
  ],
  ['usage error: settings get abc', () => assess('settings', 'get', 'abc'), env, 2, FLOOR_NODE, 2.5],
  [
    'usage error: callbacks listen --port abc',
    () => assess('callbacks', 'listen', '--port', 'abc'),
    env,
    2,
    FLOOR_NODE,
    2.5,
  ],
  ['usage error: config set nope x', () => assess('config', 'set', 'nope', 'x'), env, 2, FLOOR_NODE, 2.5],
  ['usage error: sandbox serve --port abc', () => assess('sandbox', 'serve', '--port', 'abc'), env, 2, FLOOR_NODE, 2.5],
  ['usage error: completion nope', () => assess('completion', 'nope'), env, 2, FLOOR_NODE, 2.5],
  // what a shell runs at every start (`source <(assess completion bash)`), and at each Tab
  ['completion bash', () => assess('completion', 'bash'), env, 0, FLOOR_NODE, 2.5],
  ['Tab: __complete -- ""', () => assess('__complete', '--', ''), env, 0, FLOOR_NODE, 2.5],
  [
    'Tab: __complete -- invite 1001 --json ""',
    () => assess('__complete', '--', 'invite', '1001', '--json', ''),
    env,
    0,
    FLOOR_NODE,
    2.5,
  ],
  // help: the program's summary, its full list (every noun), a noun's and a verb's page
  ['assess (the summary)', () => assess(), env, 0, FLOOR_NODE, 3],
  ['--help', () => assess('--help'), env, 0, FLOOR_NODE, 3],
  ['tests --help', () => assess('tests', '--help'), env, 0, FLOOR_NODE, 3],
  ['invite --help', () => assess('invite', '--help'), env, 0, FLOOR_NODE, 3],
  ['help links create', () => assess('help', 'links', 'create'), env, 0, FLOOR_NODE, 3],
  // reference: commander and zod/mini alone, the same usage error (nothing of ours)
  ['floor: commander + zod/mini, tests get abc', () => [usageFloor, 'tests', 'get', 'abc'], env, 2, FLOOR_NODE, NaN],
  // reference: what undici's public entry alone costs a one-request script
  ['floor: undici request', () => [join(ROOT, 'bench/floor/undici-request.mjs')], env, 0, FLOOR_HTTP, NaN],
  // reference: commander, zod/mini and undici, built like ours: the stack's one request
  [
    'floor: commander + zod/mini + undici, tests get 1001',
    () => [requestFloor, 'tests', 'get', '1001'],
    env,
    0,
    FLOOR_HTTP,
    NaN,
  ],
];
if (existsSync(STANDALONE))
  cases.push(
    ['standalone: --version', () => standalone('--version'), env, 0, FLOOR_NODE, NaN],
    ['standalone: usage error: tests get abc', () => standalone('tests', 'get', 'abc'), env, 2, FLOOR_NODE, NaN],
    ['standalone: config list', () => standalone('config', 'list'), env, 0, FLOOR_NODE, NaN],
    ['standalone: tests get 1001 --json', () => standalone('tests', 'get', '1001', '--json'), env, 0, FLOOR_HTTP, NaN],
  );

const PERF = spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', 'true'], { stdio: 'ignore' }).status === 0;

// Wall time is taken from a run of the program alone (spawn to exit); peak RSS and CPU time from
// a second run under /usr/bin/time (and perf): their own start would add ~10 ms to both sides of
// each ratio and flatter it.
function run(argv, runEnv, expect) {
  const exe = argv[0] === STANDALONE ? argv : [process.execPath, ...argv];
  const t = process.hrtime.bigint();
  const bare = spawnSync(exe[0], exe.slice(1), { env: runEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (bare.status !== expect)
    throw new Error(`${argv.join(' ')}: exit ${bare.status}, expected ${expect}\n${bare.stderr}`);
  return ms;
}
function measure(argv, runEnv, expect) {
  const out = join(work, 'time.txt');
  const perfOut = join(work, 'perf.txt');
  const cmd = [
    '/usr/bin/time',
    '-f',
    '%M',
    '-o',
    out,
    ...(argv[0] === STANDALONE ? argv : [process.execPath, ...argv]),
  ];
  const full = PERF ? ['perf', 'stat', '-x,', '-e', 'task-clock', '-o', perfOut, ...cmd] : cmd;
  const r = spawnSync(full[0], full.slice(1), { env: runEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== expect) throw new Error(`${argv.join(' ')}: exit ${r.status}, expected ${expect}\n${r.stderr}`);
  const kb = Number(readFileSync(out, 'utf8').trim().split('\n').pop());
  const cpu = PERF
    ? Number(
        readFileSync(perfOut, 'utf8')
          .split('\n')
          .find((l) => l.includes('task-clock'))
          ?.split(',')[0],
      )
    : NaN;
  return [kb / 1024, cpu];
}
const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const quartile = (a, q) => [...a].sort((x, y) => x - y)[Math.round(q * (a.length - 1))];

const load = [loadavg()[0]];
const rows = [];
try {
  for (const [label, argv, runEnv, expect, [floorLabel, floorArgv], target] of cases) {
    if (only && !only.test(label)) continue;
    const A = { ms: [], rss: [], cpu: [] };
    const F = { ms: [], rss: [], cpu: [] };
    run(argv(2 * pairs + 1), runEnv, expect); // warm the disk cache
    run(floorArgv, env, 0);
    for (let i = 0; i < pairs; i++) {
      // alternate which side goes first, so neither always runs right after the other
      const order = i % 2 ? [F, A] : [A, F];
      for (const side of order) side.ms.push(side === A ? run(argv(2 * i), runEnv, expect) : run(floorArgv, env, 0));
      for (const side of order) {
        const [rss, cpu] = side === A ? measure(argv(2 * i + 1), runEnv, expect) : measure(floorArgv, env, 0);
        side.rss.push(rss);
        side.cpu.push(cpu);
      }
    }
    const ratio = median(A.ms) / median(F.ms);
    const pairRatios = A.ms.map((ms, i) => ms / F.ms[i]);
    const spread = [quartile(pairRatios, 0.25), quartile(pairRatios, 0.75)];
    const cpu = { a: median(A.cpu), f: median(F.cpu) };
    rows.push({
      label,
      floorLabel,
      a: median(A.ms),
      f: median(F.ms),
      ratio,
      spread,
      cpu,
      rss: median(A.rss),
      frss: median(F.rss),
      target,
    });
    load.push(loadavg()[0]);
  }
} finally {
  sb.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}

console.log(
  `${new Date().toISOString()} · node ${process.version} · ${cpus().length} × ${cpus()[0]?.model ?? '?'} · ` +
    `${pairs} pairs per row`,
);
console.log(`load average (1 min) during the run: ${Math.min(...load).toFixed(2)}–${Math.max(...load).toFixed(2)}\n`);
console.log(
  '| command | vs | median ms | floor ms | ratio | spread | target | CPU ms | floor CPU ms | CPU ratio | peak RSS ' +
    'MiB | floor RSS MiB |',
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  const t = Number.isFinite(r.target) ? `≤ ${r.target}×${r.ratio <= r.target ? ' ✓' : ' ✗'}` : '–';
  const cpu = Number.isFinite(r.cpu.a)
    ? `${r.cpu.a.toFixed(1)} | ${r.cpu.f.toFixed(1)} | ${(r.cpu.a / r.cpu.f).toFixed(2)}×`
    : '– | – | –';
  console.log(
    `| \`${r.label}\` | ${r.floorLabel} | ${r.a.toFixed(0)} | ${r.f.toFixed(0)} | ${r.ratio.toFixed(2)}× | ` +
      `${r.spread.map((x) => x.toFixed(2)).join('–')} | ${t} | ${cpu} | ${r.rss.toFixed(1)} | ${r.frss.toFixed(1)} |`,
  );
}
