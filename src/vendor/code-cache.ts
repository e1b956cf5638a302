// Loads a bundled npm package (dist/vendor/<name>.cjs, made by scripts/build.mjs) through
// vm.Script with V8's code cache, so each run does not parse and compile ~2 MB of zod, undici
// and commander again (Node 20 has no module.enableCompileCache; that is 22.1+).
//
// The cache is private and safe to lose: files under <config dir>/cache/v8/<key>/ (0700 folder,
// 0600 files, written to a temp name and renamed), where the key names this build, node's
// version and the CPU architecture. V8 checks each entry against the source and its own flags
// and rejects a stale or damaged one (`cachedDataRejected`): the package is then compiled as
// usual and the entry rewritten. Any failure to read or write it only costs the compile.
// ASSESS_CODE_CACHE=0 turns it off.
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

declare const __ASSESS_BUILD_ID__: string;

const here = dirname(fileURLToPath(import.meta.url));
// chunks sit in dist/, entry files one level down (dist/cli/program.js)
const VENDOR = existsSync(join(here, 'vendor')) ? join(here, 'vendor') : join(here, '..', 'vendor');
const pending: Array<() => void> = [];

function cacheDir(): string | undefined {
  const env = process.env;
  // ASSESS_DUMP_HELP: the build and `npm run docs` snapshot help text; no cache of theirs to keep
  if (env.ASSESS_CODE_CACHE === '0' || env.ASSESS_DUMP_HELP) return undefined;
  const config = env.ASSESS_CONFIG_DIR || join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'assess');
  return join(config, 'cache', 'v8', `${__ASSESS_BUILD_ID__}-node${process.version}-${process.arch}`);
}

/** Entries of other builds (or node versions) are never read again: drop them. */
function pruneOthers(dir: string): void {
  const parent = dirname(dir);
  for (const name of readdirSync(parent)) if (join(parent, name) !== dir) rmSync(join(parent, name), { recursive: true, force: true });
}

/** Only our own folder, not writable by others, is trusted with code V8 will run. */
function privateDir(dir: string): boolean {
  const st = lstatSync(dir);
  return st.isDirectory() && (st.mode & 0o022) === 0 && (typeof process.getuid !== 'function' || st.uid === process.getuid());
}

export function requireCached(name: string): unknown {
  const file = join(VENDOR, `${name}.cjs`);
  const source = readFileSync(file, 'utf8');
  const dir = cacheDir();
  const entry = dir && join(dir, `${name}.bin`);
  let cached: Buffer | undefined;
  try {
    if (dir && entry && privateDir(dir)) cached = readFileSync(entry);
  } catch {
    // no cache yet, or not ours: compile
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData: cached });
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...a: unknown[]) => void)(module.exports, createRequire(file), module, file, dirname(file));
  if (entry && dir && (!cached || script.cachedDataRejected)) {
    // made at exit: by then the functions this run used are compiled too and go into the cache
    if (!pending.length) process.once('exit', () => pending.forEach((write) => write()));
    pending.push(() => {
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        chmodSync(dir, 0o700);
        const tmp = `${entry}.${process.pid}.tmp`;
        writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        renameSync(tmp, entry);
        pruneOthers(dir);
      } catch {
        // a read-only or full disk: next run compiles again
      }
    });
  }
  return module.exports;
}
