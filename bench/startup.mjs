// Cold-start benchmark: `assess --version`, `assess --help` and `assess tests list --help`
// against `node -e 0` on the same machine. Prints a table and the ratios (target ≤ 1.3×).
// Run after `npm run build`: node bench/startup.mjs [runs]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 40);
const bin = fileURLToPath(new URL('../bin/assess.cjs', import.meta.url));
const cases = [
  ['node -e 0', ['-e', '0']],
  ['assess --version', [bin, '--version']],
  ['assess --help', [bin, '--help']],
  ['assess tests list --help', [bin, 'tests', 'list', '--help']],
];

function time(args) {
  const samples = [];
  for (let i = 0; i < runs + 3; i++) {
    const t = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { stdio: 'ignore' });
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
    if (i >= 3) samples.push(ms); // the first runs warm the disk cache
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], p90: samples[Math.floor(samples.length * 0.9)] };
}

// Interleave rounds so background load hits every case alike.
const results = cases.map(([name]) => ({ name, median: 0, p90: 0 }));
const rounds = 3;
for (let r = 0; r < rounds; r++) {
  cases.forEach(([, args], i) => {
    const t = time(args);
    results[i].median += t.median / rounds;
    results[i].p90 += t.p90 / rounds;
  });
}
const base = results[0].median;
console.log(`node ${process.version}, ${runs} runs × ${rounds} rounds each\n`);
console.log('| command | median ms | p90 ms | × node -e 0 |');
console.log('|---|---:|---:|---:|');
for (const r of results)
  console.log(`| ${r.name} | ${r.median.toFixed(1)} | ${r.p90.toFixed(1)} | ${(r.median / base).toFixed(2)} |`);
