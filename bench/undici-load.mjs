// What loading undici's public entry costs a command, in its parts: Node's http2 module (undici's
// HTTP/2 client requires it), Node's own copy of undici (undici's cookie code reads the global
// `Headers`, which loads it), then the rest of undici's bundle — each measured inside one
// process with the compile cache on, as `assess` loads it. Medians over runs, one process each.
//   node bench/undici-load.mjs [runs=15]   (build first: npm run build)
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const runs = Number(process.argv[2] ?? 15);
const bundle = join(import.meta.dirname, '../dist/vendor/undici.cjs');
const cache = mkdtempSync(join(tmpdir(), 'assess-bench-undici-'));
const probe = `
const { performance: p } = require('node:perf_hooks');
const t0 = p.now(); require('node:http2');
const t1 = p.now(); globalThis.Headers;
const t2 = p.now(); require(${JSON.stringify(bundle)});
const t3 = p.now();
process.stdout.write(JSON.stringify([t1 - t0, t2 - t1, t3 - t2]));`;
const env = { ...process.env, NODE_COMPILE_CACHE: cache };
const wall = (args) => {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  return [Number(process.hrtime.bigint() - t) / 1e6, r.stdout];
};
spawnSync(process.execPath, ['-e', probe], { env }); // fills the compile cache
const parts = [[], [], []];
const walls = { bare: [], undici: [] };
for (let i = 0; i < runs; i++) {
  walls.bare.push(wall(['-e', '0'])[0]);
  const [ms, out] = wall(['-e', probe]);
  walls.undici.push(ms);
  JSON.parse(out).forEach((v, k) => parts[k].push(v));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`node ${process.version} · ${runs} runs · median ms`);
console.log('| part | ms |\n|---|---:|');
for (const [label, xs] of [
  ['`node:http2`', parts[0]],
  ["Node's own undici (the global `Headers`)", parts[1]],
  ["the rest of undici's bundle", parts[2]],
  ['`node -e 0`, wall', walls.bare],
  ['`node -e` loading all three, wall', walls.undici],
])
  console.log(`| ${label} | ${median(xs).toFixed(1)} |`);
