// Entry point. Start-up uses Node's supported mechanisms only:
// - Node's compile cache (`module.enableCompileCache()`), turned on before the
//   program bundle is loaded, in a 0700 directory of the user's (ownCacheDir). Node keys it by
//   file content and Node version, checks each entry and rewrites a bad one; NODE_COMPILE_CACHE
//   picks its directory and NODE_DISABLE_COMPILE_CACHE turns it off. Any failure (an
//   unwritable or unsafe directory) only costs speed.
// - `--version`, `--help` and `completion <shell>` answered from snapshots the build took of the
//   program (dist/help.json, dist/completion.json), without loading it.
// - The program itself (dist/cli.cjs) imports only the noun on the command line and undici on
//   the first request.
// - A bulk run happens in a child Node started with a memory flag (src/cli/bulk-child.ts).
import module from 'node:module';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInBulkChild } from './cli/bulk-child.js';
import { guardedStdout } from './cli/stdout-guard.js';
import { helpWidth, SNAPSHOT_HELP_WIDTH } from './cli/terminal-size.js';
import { makePrivateDir, privateDirProblem } from './util/private-dir.js';

// Set from package.json by scripts/build.mjs (src/version.ts is the same value for other modules).
declare const __ASSESS_VERSION__: string;
// true in the standalone executable (scripts/package.mjs): the snapshots are assets inside it
declare const __ASSESS_SEA__: boolean | undefined;

// dist/main.cjs is CommonJS; `tsx src/main.ts` runs this file as an ES module.
const HERE = typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));

// `assess help attempts list` is `assess attempts list --help` (commander's help command only
// knows one level).
const given = process.argv.slice(2);
const argv = given[0] === 'help' && given.length > 1 ? [...given.slice(1), '--help'] : given;

function fastPath(): boolean {
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
    const raw =
      typeof __ASSESS_SEA__ === 'boolean' && __ASSESS_SEA__
        ? process.getBuiltinModule('node:sea').getAsset(file, 'utf8')
        : readFileSync(join(HERE, file), 'utf8');
    texts = JSON.parse(raw);
  } catch {
    return false; // not built yet (dev run): the program answers
  }
  const text = Object.hasOwn(texts, key) ? texts[key] : undefined;
  if (text === undefined) return false;
  guardedStdout().write(text);
  return true;
}

/** Node's own compile cache; its status for --debug. */
function enableCompileCache(): string {
  try {
    // NODE_COMPILE_CACHE (the user's choice) or NODE_DISABLE_COMPILE_CACHE: Node reads them itself
    const own = process.env.NODE_COMPILE_CACHE || process.env.NODE_DISABLE_COMPILE_CACHE ? undefined : ownCacheDir();
    if (typeof own === 'object') return `skipped: ${own.why}`;
    const { status, message, directory } = module.enableCompileCache(own);
    const name =
      Object.entries(module.constants.compileCacheStatus).find(([, v]) => v === status)?.[0] ?? String(status);
    return `${name.toLowerCase()}${directory ? ` (${directory})` : ''}${message ? `: ${message}` : ''}`;
  } catch (err) {
    return `failed: ${err instanceof Error ? err.message : String(err)}`; // speed only
  }
}

/**
 * `$XDG_CACHE_HOME/assess/compile-cache` (else ~/.cache/…), made 0700, or why not: Node's default,
 * `$TMPDIR/node-compile-cache`, is a shared place another user can create first and fill (a FIFO
 * among its entries hung every command). A directory that is not ours, or not 0700, is skipped.
 */
function ownCacheDir(): string | { why: string } {
  const xdg = process.env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache');
  const dir = join(base, 'assess', 'compile-cache');
  try {
    makePrivateDir(dir);
    const problem = privateDirProblem(dir, 0o700) ?? privateDirProblem(dirname(dir));
    return problem ? { why: problem } : dir;
  } catch (err) {
    return { why: `cannot make ${dir} (${(err as NodeJS.ErrnoException).code ?? String(err)})` };
  }
}

async function runProgram(): Promise<void> {
  const compileCache = enableCompileCache(); // told under --debug by runCli
  // built: the program bundle beside this file (scripts/build.mjs maps this import to it)
  const { runCli } = await import('./cli/program.js');
  process.exitCode = await runCli(argv, undefined, { compileCache });
}

if (!fastPath()) {
  const inExecutable = typeof __ASSESS_SEA__ === 'boolean' && __ASSESS_SEA__;
  // runCli answers every error of a command itself; this is for a broken installation
  runInBulkChild(argv, inExecutable)
    .then((inChild) => (inChild ? undefined : runProgram()))
    .catch((err: unknown) => {
      process.stderr.write(
        `error: ${err instanceof Error ? err.message : String(err)}\n  this looks like a bug or a broken installation; reinstall assess\n`,
      );
      process.exitCode = 1;
    });
}
