// Loads the program (dist/cli.cjs, or the family's dist/cli-<family>.cjs: src/cli/programs.ts),
// and undici (dist/undici.cjs) when a command first sends a request, each with V8's code cache.
// Compiling a bundle is most of a command's start-up; the cache hands V8 the bytecode instead.
// Node 20 has no code cache for ES modules (module.enableCompileCache is Node 22), hence
// CommonJS bundles compiled through vm.Script.
// undici is a script of its own because it is half of the code (~740 KB) and a command that sends
// nothing (config, auth status, usage errors) need not read it, nor deserialise its cache.
//
// The build writes `<bundle>.cache` after running a few commands. V8 takes a cache only when its
// version, its flags and the source's LENGTH match, and otherwise compiles as usual. Length is not
// content, and a refused cache costs a full compile, so each cache file opens with a line naming
// the build (`/*assess-build:<id>*/` at the top of each bundle) and the Node it is for (V8's
// version and the process's flags): only a cache of this build for this Node reaches V8.
// Under another Node or other flags, the run compiles, and then writes a cache of its own to the
// user's cache folder (userCacheDir) for the next run.
// Each bundle is the body of a CommonJS module wrapper, written ASCII-only by the build: read as
// latin1, without UTF-8 decoding or a copy for Module.wrap.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { fnv1a } from '../util/fnv1a.js';

type Program = typeof import('./program.js');

export interface LoadOptions {
  /** Where a cache for this Node is kept when the build's is for another; undefined: nowhere. */
  userCacheDir?: () => string | undefined;
  /** What V8 checks besides the source; tests pass their own. */
  fingerprint?: string;
}

export interface LoadedScript {
  /** The bundle's module.exports. */
  exports: unknown;
  /** The bundle's path. */
  file: string;
  script: Script;
  /**
   * none: no cache file; stale: another build's; other-node: the build's cache is for another
   * Node or other flags (and there is no user cache yet); rejected: V8 refused it; used.
   */
  cache: 'none' | 'stale' | 'other-node' | 'rejected' | 'used';
  /** The file the cache came from, when used. */
  cacheFile?: string;
  cacheBytes: number;
  buildId: string | undefined;
  stamp: string;
}

export interface LoadedCli extends LoadedScript {
  program: Program;
}

export const cacheFileOf = (bundle: string): string => `${bundle}.cache`;
/** `code-<build id>-<node hash>-<bundle>.cache`: the stamp names the build and the Node. */
export const userCacheFileOf = (dir: string, stamp: string, bundle: string) => join(dir, `code-${stamp.replace(' ', '-')}-${basename(bundle)}.cache`);

const BUILD_ID = /^\/\*assess-build:([\w-]+)\*\//;

/** V8's version and the flags it was started with (hashed into the stamp with FNV-1a). */
export function nodeFingerprint(): string {
  return [process.versions.v8, ...process.execArgv, process.env.NODE_OPTIONS ?? ''].join('\0');
}

/** A cache file: the stamp line, then V8's data. */
const stamped = (stamp: string, data: Buffer): Buffer => Buffer.concat([Buffer.from(`${stamp}\n`, 'latin1'), data]);

/** Undefined when the bundle is not there (a run from src/ with tsx). */
export function loadCli(bundle: string, opts: LoadOptions = {}): LoadedCli | undefined {
  const loaded = loadScript(bundle, opts);
  return loaded && { ...loaded, program: loaded.exports as Program };
}

/** Compiles and runs one bundle (with its code cache when it has a good one). */
export function loadScript(bundle: string, opts: LoadOptions = {}): LoadedScript | undefined {
  let source: string;
  try {
    source = readFileSync(bundle, 'latin1');
  } catch {
    return undefined;
  }
  const buildId = BUILD_ID.exec(source)?.[1];
  const stamp = `${buildId} ${fnv1a(opts.fingerprint ?? nodeFingerprint())
    .toString(16)
    .padStart(8, '0')}`;
  let cache = 'none' as LoadedCli['cache']; // (set in take(), which TypeScript does not follow)
  let cachedData: Buffer | undefined;
  let cacheFile: string | undefined;
  const take = (file: string): void => {
    const data = readCache(file);
    if (data === undefined) return;
    const head = Buffer.from(`${stamp}\n`, 'latin1');
    if (buildId && data.subarray(0, head.length).equals(head)) {
      cachedData = data.subarray(head.length);
      cacheFile = file;
    } else if (cache === 'none') {
      cache = buildId && data.subarray(0, buildId.length + 1).toString('latin1') === `${buildId} ` ? 'other-node' : 'stale';
    }
  };
  take(cacheFileOf(bundle));
  if (!cachedData && cache === 'other-node' && buildId) {
    const dir = opts.userCacheDir?.();
    if (dir) take(userCacheFileOf(dir, stamp, bundle));
  }
  const script = new Script(source, { filename: bundle, cachedData });
  if (cachedData) cache = script.cachedDataRejected ? 'rejected' : 'used';
  const module = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (e: unknown, r: NodeJS.Require, m: object, f: string, d: string) => void;
  wrapper(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return { exports: module.exports, file: bundle, script, cache, cacheFile, cacheBytes: cachedData?.length ?? 0, buildId, stamp };
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** The build's cache: everything compiled so far (the build calls it after its warm-up runs). */
export function writeCodeCache(loaded: LoadedScript): number {
  if (!loaded.buildId) throw new Error(`${loaded.file} does not start with its build id`);
  const data = loaded.script.createCachedData();
  writeFileSync(cacheFileOf(loaded.file), stamped(loaded.stamp, data));
  return data.length;
}

/**
 * After a run that compiled because the build's cache is for another Node: a cache for this one,
 * in the user's cache folder (private and atomic: writeFileAtomic, imported only here, when a
 * cache is written; caches of other builds are removed). Never fails the command: a cache only
 * saves time.
 */
export async function saveUserCodeCache(loaded: LoadedScript, userCacheDir: () => string | undefined): Promise<string | undefined> {
  if (loaded.cache !== 'other-node' || !loaded.buildId) return undefined;
  const dir = userCacheDir();
  if (!dir) return undefined;
  const file = userCacheFileOf(dir, loaded.stamp, loaded.file);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { writeFileAtomic } = await import('../bulk/atomic.js');
    writeFileAtomic(file, stamped(loaded.stamp, loaded.script.createCachedData()));
    for (const f of readdirSync(dir)) if (/^code-.*\.cache$/.test(f) && !f.startsWith(`code-${loaded.buildId}-`)) rmSync(join(dir, f), { force: true });
    return file;
  } catch {
    return undefined;
  }
}
