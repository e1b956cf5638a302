// Paired A/B of two builds of assess, alternating runs (21 pairs, medians; peak RSS from
// /usr/bin/time): A_BIN=/path/to/old/bin/assess.cjs B_BIN=bin/assess.cjs node bench/paired-builds.mjs
// Used to check that a change adds no start-up time (e.g. the tolerant reader, 2026-11-23).
import { spawn, spawnSync } from 'node:child_process';
if (!process.env.A_BIN || !process.env.B_BIN) {
  console.error(
    'usage: A_BIN=<old build>/bin/assess.cjs B_BIN=<new build>/bin/assess.cjs node bench/paired-builds.mjs',
  );
  process.exit(2);
}
// the sandbox from this checkout's build (B), so the bench does not depend on another tree
const sb = spawn('node', [process.env.B_BIN, 'sandbox', 'serve', '--port', '0', '--json'], {
  stdio: ['ignore', 'pipe', 'ignore'],
});
const info = await new Promise((r) => sb.stdout.once('data', (d) => r(JSON.parse(String(d)))));
const env = {
  ...process.env,
  ASSESS_BASE_URL: info.baseUrl,
  ASSESS_API_KEY: info.keys[0],
  ASSESS_CONFIG_DIR: (await import('node:fs')).mkdtempSync('/tmp/assess-paired-'),
  CI: 'true',
};
const run = (bin, args) => {
  const t = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', 'node', bin, ...args], { env });
  if (r.status !== 0) throw new Error(String(r.stderr));
  const kb = Number(String(r.stderr).trim().split('\n').pop());
  return [Number(process.hrtime.bigint() - t) / 1e6, kb / 1024];
};
const med = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
};
console.log('| command | before (wall, RSS) | after (wall, RSS) | wall ratio |');
console.log('|---|---|---|---|');
for (const args of [
  ['tests', 'get', '1001', '--json'],
  ['report', '900001', '--json'],
  ['invite', '1001', '--email', 'bench@example.com', '--name', 'Bench', '--json'],
  ['config', 'list'],
]) {
  const A = [],
    B = [],
    RA = [],
    RB = [];
  for (let i = 0; i < 21; i++) {
    const [a, ra] = run(process.env.A_BIN, args);
    const [b, rb] = run(process.env.B_BIN, args);
    A.push(a);
    B.push(b);
    RA.push(ra);
    RB.push(rb);
  }
  console.log(
    `| \`${args.slice(0, 3).join(' ')}\` | ${med(A).toFixed(0)} ms, ${med(RA).toFixed(1)} MiB | ` +
      `${med(B).toFixed(0)} ms, ${med(RB).toFixed(1)} MiB | ${(med(B) / med(A)).toFixed(2)} |`,
  );
}
sb.kill();
