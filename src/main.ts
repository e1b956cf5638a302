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
import { defaultFlags, enableRunFlags, flagProbe, serverFlags } from './util/v8-flags.js';

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
  // V8's flags for the work (src/util/v8-flags.ts) are set when it starts: the first request, a
  // bulk job or a server. Until then, and whenever a code cache is written, V8 runs with its
  // defaults: the code caches in dist/ are made and taken under them.
  enableRunFlags();
  // a family of nouns runs its own, smaller program with a cache of its own (src/cli/programs.ts)
  const family = process.env.ASSESS_WARM_CODE_CACHE ? process.env.ASSESS_WARM_PROGRAM : programFor(argv);
  const bundle = join(HERE, family ?? 'cli.cjs');
  const loaded = loadCli(bundle, { userCacheDir });
  const warmUp = process.env.ASSESS_WARM_CODE_CACHE;
  // before any flag is set: what tells, when a cache is written, that they are V8's defaults again
  const probe = warmUp || loaded?.cache === 'other-node' ? flagProbe() : undefined;
  const server = isServer(argv);
  if (server) serverFlags();
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
  if (warmUp && loaded) {
    // build only (scripts/build.mjs): run each command line, then cache what they compiled
    for (const line of JSON.parse(warmUp) as string[][]) await runCli(line);
    if (!defaultFlags(probe!)) throw new Error(`V8's default flags could not be set back (${process.versions.v8}): src/util/v8-flags.ts`);
    // a family's warm-up writes its program's cache only (undici's is the whole program's)
    for (const script of family ? [loaded] : scripts) writeCodeCache(script);
  } else {
    process.exitCode = await runCli(argv);
    // the build's cache is for another Node or other flags: keep one for this Node (not from a
    // server, whose flags stay changed while it winds down), under V8's default flags
    const saving = server || !probe ? [] : scripts.filter((s) => s.cache === 'other-node');
    if (saving.length && !defaultFlags(probe!)) {
      if (debug) process.stderr.write(`[debug] code cache: not saved (V8's flags could not be set back)\n`);
      return;
    }
    for (const script of saving) {
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
