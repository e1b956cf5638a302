// Entry point. Start-up uses Node's supported mechanisms only:
// - Node's compile cache (`module.enableCompileCache()`), turned on before the
//   program bundle is loaded, in a 0700 directory of the user's (ownCacheDir). Node keys it by
//   file content and Node version, checks each entry and rewrites a bad one; NODE_COMPILE_CACHE
//   picks its directory and NODE_DISABLE_COMPILE_CACHE turns it off. Any failure (an
//   unwritable or unsafe directory) only costs speed.
// - The program itself (dist/cli.cjs) builds the commands of the noun on the command line, runs
//   the one named, and loads undici on the first request. Every command, bulk runs included,
//   runs in this one process.
import module from 'node:module';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { makePrivateDir, privateDirProblem } from './util/private-dir.js';

const argv = process.argv.slice(2);

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

// runCli answers every error of a command itself; this is for a broken installation
runProgram().catch((err: unknown) => {
  process.stderr.write(
    `error: ${err instanceof Error ? err.message : String(err)}\n  this looks like a bug or a broken installation; ` +
      `reinstall assess\n`,
  );
  process.exitCode = 1;
});
