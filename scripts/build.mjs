// Builds dist/ with esbuild:
//   dist/main.cjs    the entry: turns on Node's compile cache, then loads the program;
//   dist/cli.cjs     the program (src/cli/program.ts) and the npm packages it uses, one file:
//                    one read instead of hundreds of modules resolved (zod alone is ~230). A
//                    noun's verbs are evaluated only when the command line reaches the noun;
//   dist/vendor/*.cjs  the packages only some runs load, each a bundle apart (LAZY): undici (a
//                    command that sends a request), @inquirer/prompts (one that asks), fastify
//                    and pdfkit (the sandbox's server and PDF reports), the MCP SDK (`assess mcp`),
//                    chalk (coloured output), cli-table3 (a table), csv-parse (a CSV read) and
//                    jmespath (--query). Every start would otherwise read, decode and hash them
//                    for the compile cache (~4 ms a MiB).
// commander's require of node:child_process waits for its first use (commander-child-process.mjs).
// So the package has no runtime dependencies: npm installs one package, with nothing of other
// packages' engines or peer ranges to warn about. pdfkit's standard fonts are JavaScript modules
// it loads through a require() of its own (createRequire): pdfkitFonts hands them to esbuild.
// Source maps (dist/*.map) are for this repository's debugging; package.json's `files` leaves
// them out of the package. scripts/package.mjs builds the standalone executable from the same
// sources (`npm run package`).
//
// It builds into a fresh folder and swaps it in with renames, so a test run using dist/ never
// sees a half-written build.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { devImport } from './dev-tools.mjs';

// loaded, not imported: on a fresh clone without `npm ci` a missing tool is one line (dev-tools.mjs)
const { build } = await devImport(() => import('esbuild'));
const { pdfkitFonts } = await devImport(() => import('./pdfkit-fonts.mjs'));
const { commanderChildProcess } = await import('./commander-child-process.mjs');

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// Each bundle apart: the package it holds, whose module.exports is what `import(package)` gives
// the program (esbuild's require() in place of import() takes a CommonJS module's exports as its
// default, as Node does); or what it is made of, the imports it answers read from its `from`s.
const LAZY = {
  undici: 'undici',
  prompts: '@inquirer/prompts',
  fastify: 'fastify',
  pdfkit: 'pdfkit',
  chalk: 'chalk',
  table: 'cli-table3',
  'csv-parse': 'csv-parse',
  jmespath: '@jmespath-community/jmespath',
  // `assess mcp`: the MCP server, stdio transport and the two request schemas it answers, imported
  // by name from the SDK's ES modules so esbuild keeps only what they use (396 KiB; the whole
  // CommonJS SDK with every zod module was 1165 KiB and took 3-6 times as long to load)
  mcp: {
    contents:
      "export { Server } from '@modelcontextprotocol/sdk/server/index.js'; export { StdioServerTransport } from " +
      "'@modelcontextprotocol/sdk/server/stdio.js'; " +
      "export { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';",
  },
};
const contentsOf = (b) => (typeof b === 'string' ? `module.exports = require('${b}');` : b.contents);
const importsOf = (b) => (typeof b === 'string' ? [b] : [...b.contents.matchAll(/from '([^']+)'/g)].map((m) => m[1]));
/** An import of the program → the bundle that answers it. */
const BUNDLE_OF = new Map(Object.entries(LAZY).flatMap(([name, b]) => importsOf(b).map((i) => [i, name])));

const common = {
  bundle: true,
  platform: 'node',
  target: 'node22.13',
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  sourcemap: 'linked',
  logLevel: 'warning',
  define: { __ASSESS_VERSION__: JSON.stringify(pkg.version), __ASSESS_SEA__: 'false' },
  legalComments: 'external', // the packages' licence notes go to <bundle>.LEGAL.txt
  // smaller to read and hash at every start; names are kept (stack traces of --debug)
  minifyWhitespace: true,
  minifySyntax: true,
};

// The entry's import of the program, and the program's of a LAZY package, are the bundles
// beside them.
const beside = (filter, file) => ({
  name: `beside-${file}`,
  setup: (b) => b.onResolve({ filter }, () => ({ path: `./${file}`, external: true })),
});
const exactly = (names) => new RegExp(`^(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`);
const lazyPackages = {
  name: 'lazy-packages',
  setup: (b) =>
    b.onResolve({ filter: exactly([...BUNDLE_OF.keys()]) }, (args) => ({
      path: `./vendor/${BUNDLE_OF.get(args.path)}.cjs`,
      external: true,
    })),
};

// Bundles are ASCII: esbuild escapes other characters, but not in a regular expression, and one
// above U+00FF makes V8 hold the whole bundle as a two-byte string (twice the memory, ~1.5 ms a start).
function asciiOnly(dir) {
  for (const f of readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.cjs'))) {
    const at = readFileSync(`${dir}/${f}`, 'latin1').search(/[^\x00-\x7f]/);
    if (at >= 0)
      throw new Error(`${f}: a character that is not ASCII at offset ${at}: write it as an escape (\\u2019)`);
  }
}

const out = `dist.build-${process.pid}`;
rmSync(out, { recursive: true, force: true });
try {
  await build({
    ...common,
    entryPoints: ['src/main.ts'],
    outdir: out,
    sourcemap: false,
    plugins: [beside(/\/cli\/program\.js$/, 'cli.cjs')],
    supported: { 'dynamic-import': false }, // import() of the program becomes require()
    logOverride: { 'empty-import-meta': 'silent' }, // src/main.ts uses __dirname when it has one
  });
  await build({
    ...common,
    entryPoints: { cli: 'src/cli/program.ts' },
    outdir: out,
    plugins: [lazyPackages, commanderChildProcess],
    supported: { 'dynamic-import': false }, // import() of a package becomes require(): no ES module loader started
    logOverride: { 'empty-import-meta': 'silent' }, // src/version.ts: only without __ASSESS_VERSION__
  });
  for (const [name, bundle] of Object.entries(LAZY))
    await build({
      ...common,
      stdin: { contents: contentsOf(bundle), resolveDir: '.', sourcefile: `${name}.cjs` },
      outfile: `${out}/vendor/${name}.cjs`,
      sourcemap: false,
      plugins: [pdfkitFonts],
    });
  asciiOnly(out);
  const old = `dist.old-${process.pid}`;
  if (existsSync('dist')) renameSync('dist', old);
  renameSync(out, 'dist');
  rmSync(old, { recursive: true, force: true });
  const kib = (f) => Math.round(readFileSync(`dist/${f}`).length / 1024);
  console.log(
    `built dist/ (assess ${pkg.version}, main.cjs ${kib('main.cjs')} KiB, cli.cjs ${kib('cli.cjs')} KiB, ${Object.keys(
      LAZY,
    )
      .map((k) => `vendor/${k}.cjs ${kib(`vendor/${k}.cjs`)} KiB`)
      .join(', ')})`,
  );
} finally {
  rmSync(out, { recursive: true, force: true });
}
