// Bundles src/ into dist/ with esbuild (our code only; npm packages stay external so
// data-file-reading libraries like pdfkit keep working), then snapshots every command's
// --help text into dist/help.json so `assess --help` and `assess <cmd> --help` start
// without loading commander, zod or any command module.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: ['src/main.ts', 'src/cli/program.ts', 'src/sandbox/index.ts'],
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  define: { __ASSESS_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
});
const help = execFileSync(process.execPath, ['dist/main.js'], {
  env: { ...process.env, ASSESS_DUMP_HELP: '1', NO_COLOR: '1' },
  encoding: 'utf8',
});
writeFileSync('dist/help.json', help);
console.log(`built dist/ (assess ${pkg.version}, ${Object.keys(JSON.parse(help)).length} help pages)`);
