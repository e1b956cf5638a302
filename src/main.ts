// Entry point. `--version` and `--help` are answered from dist/help.json (snapshotted from the
// commander program at build time) without loading commander, zod or any command, so the
// commonest invocations start about as fast as node itself; `completion <shell>`, which a shell
// runs at every start (`source <(assess completion bash)`), from dist/completion.json.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCli, loadScript, saveUserCodeCache, writeCodeCache, type LoadedScript } from './cli/load-cli.js';
import { programFor } from './cli/programs.js';
import { guardedStdout } from './cli/stdout-guard.js';
import { helpWidth, SNAPSHOT_HELP_WIDTH } from './cli/terminal-size.js';
import { liftOptimiser, restrictOptimiser } from './util/optimiser.js';

// Set from package.json by scripts/build.mjs (src/version.ts is the same value for other modules).
declare const __ASSESS_VERSION__: string;

// dist/main.cjs is CommonJS (Node starts a CommonJS entry ~10 ms sooner than an ES module one);
// `tsx src/main.ts` runs this file as an ES module.
const HERE = typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));

// `assess help attempts list` is `assess attempts list --help` (commander's help command only
// knows one level).
const given = process.argv.slice(2);
const argv = given[0] === 'help' && given.length > 1 ? [...given.slice(1), '--help'] : given;

function fastPath(): boolean {
  if (process.env.ASSESS_DUMP_HELP || process.env.ASSESS_WARM_CODE_CACHE) return false;
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    guardedStdout().write(`${__ASSESS_VERSION__}\n`);
    return true;
  }
  if (argv.length === 2 && argv[0] === 'completion') return fromSnapshot('completion.json', argv[1]!);
  const helpAt = argv.findIndex((a) => a === '--help' || a === '-h');
  const words = argv.filter((a) => a !== '--help' && a !== '-h');
  const isHelp = argv.length === 0 || (helpAt === argv.length - 1 && words.every((w) => /^[a-z][a-z0-9-]*$/.test(w)));
  if (!isHelp) return false;
  // the snapshot is wrapped at 80 columns: a terminal of another width gets help built for it
  const width = helpWidth(guardedStdout(), process.env);
  if (width !== undefined && width !== SNAPSHOT_HELP_WIDTH) return false;
  return fromSnapshot('help.json', words.join(' ')); // an unknown command: commander suggests one
}

/** Writes `key`'s text from a snapshot the build made (dist/<file>); false when there is none. */
function fromSnapshot(file: string, key: string): boolean {
  let texts: Record<string, string>;
  try {
    texts = JSON.parse(readFileSync(join(HERE, file), 'utf8'));
  } catch {
    return false; // not built yet (dev run): the program answers
  }
  const text = Object.hasOwn(texts, key) ? texts[key] : undefined;
  if (text === undefined) return false;
  guardedStdout().write(text);
  return true;
}

async function runProgram(): Promise<void> {
  // undici parses HTTP with llhttp compiled to WebAssembly, once per process on its first
  // connection. V8 compiles it with Liftoff (its baseline compiler) and then again with TurboFan
  // in the background: ~30 MiB and CPU time a CLI run never gets back. Liftoff-only code is the
  // same program, less optimised: speed and memory change, not behaviour (docs/assumptions.md).
  // Set first thing, before anything is compiled, so that every run compiles under one set of flags
  // (the code caches in dist/ were written under these flags and are taken only with them).
  // (node:v8 is loaded here, not at the top: loading it costs ~1.6 ms that --help and --version
  // need not pay; and not with import(), which loads Node's ES module loader, ~2.7 ms more)
  const { setFlagsFromString } = process.getBuiltinModule('node:v8');
  setFlagsFromString('--liftoff-only');
  // A CLI run keeps little alive (~11 MB in a 50,000-row invite) but allocates steadily. V8's
  // defaults let the young generation grow to 32 MiB and the old one to ~4× what survives before
  // collecting: ~115 MiB peak for a bulk run. A young generation that stays at its initial 2 MiB
  // and old-generation limits 1.5× the live size keep a bulk run at ~80-88 MiB, flat from 2,000
  // to 50,000 rows, for ~5 % more CPU (bench/README.md). Both flags are read at each collection.
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--heap-growing-percent=50');
  // A CLI run waits on the network and spends ~0.3 ms of CPU per request: TurboFan, V8's
  // optimising compiler, pays back little of what it costs in memory (its zones, and ~5 MiB of
  // node's own machine code paged in): a 2,000-row invite peaks at 81 MiB with it and 70 without,
  // at the same wall time. Code runs in Sparkplug, the baseline compiler (same program, less
  // optimised: speed changes, not behaviour). The servers (`sandbox serve`, `callbacks listen`)
  // get TurboFan back once compiled: their throughput is CPU-bound (bench/README.md, Round 6).
  restrictOptimiser(); // --max-opt=1; a server, or a CPU-bound pass for a while, lifts it (src/util/optimiser.ts)
  // a family of nouns runs its own, smaller program with a cache of its own (src/cli/programs.ts)
  const family = process.env.ASSESS_WARM_CODE_CACHE ? process.env.ASSESS_WARM_PROGRAM : programFor(argv);
  const bundle = join(HERE, family ?? 'cli.cjs');
  const loaded = loadCli(bundle, { userCacheDir });
  const server = isServer(argv);
  if (server) liftOptimiser();
  const debug = process.env.ASSESS_DEBUG === '1' || argv.includes('--debug');
  const scripts: LoadedScript[] = [];
  const loadedNow = (script: LoadedScript) => {
    scripts.push(script);
    if (debug) {
      const used = script.cache === 'used' ? ` (${script.cacheBytes} bytes, ${script.cacheFile})` : '';
      process.stderr.write(`[debug] code cache${script === loaded ? '' : ` of ${basename(script.file)}`}: ${script.cache}${used}\n`);
    }
  };
  if (loaded) loadedNow(loaded);
  const { runCli, setPackageImporter } = loaded?.program ?? (await import('./cli/program.js')); // from src/ (tsx): no bundle
  // undici is a bundle of its own (dist/undici.cjs), compiled with its cache on the first request
  let undici: unknown;
  const loadUndici = () => {
    if (undici) return undici;
    const script = loadScript(join(HERE, 'undici.cjs'), { userCacheDir });
    if (!script) throw new Error(`${join(HERE, 'undici.cjs')} is missing`);
    loadedNow(script);
    return (undici = script.exports);
  };
  setPackageImporter((specifier) => (loaded && specifier === 'undici' ? Promise.resolve(loadUndici()) : import(specifier)));
  const warmUp = process.env.ASSESS_WARM_CODE_CACHE;
  if (warmUp && loaded) {
    // build only (scripts/build.mjs): run each command line, then cache what they compiled
    for (const line of JSON.parse(warmUp) as string[][]) await runCli(line);
    // a family's warm-up writes its program's cache only (undici's is the whole program's)
    for (const script of family ? [loaded] : scripts) writeCodeCache(script);
  } else {
    process.exitCode = await runCli(argv);
    // the build's cache is for another Node or other flags: keep one for this Node (not from a
    // server: V8 stamps a cache with the flags of the moment, and the server changed --max-opt)
    for (const script of server ? [] : scripts) {
      const saved = await saveUserCodeCache(script, userCacheDir);
      if (saved && debug) process.stderr.write(`[debug] code cache: saved ${saved} for the next run\n`);
    }
  }
}

/** `sandbox serve` and `callbacks listen`: long-running servers, CPU-bound under load. */
function isServer(args: string[]): boolean {
  return args.some((a, i) => (a === 'sandbox' && args[i + 1] === 'serve') || (a === 'callbacks' && args[i + 1] === 'listen'));
}

/** Where a code cache for this Node is kept (docs/assumptions.md); ASSESS_CACHE_DIR= turns it off. */
function userCacheDir(): string | undefined {
  const set = process.env.ASSESS_CACHE_DIR;
  if (set !== undefined) return set === '' ? undefined : set;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'assess');
}

if (!fastPath()) {
  // runCli answers every error of a command itself; this is for a broken installation
  runProgram().catch((err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n  this looks like a bug or a broken installation; reinstall assess\n`);
    process.exitCode = 1;
  });
}
