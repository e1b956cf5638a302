// Loads the program (dist/cli.cjs) with V8's code cache (dist/cli.cjs.cache), which the build
// writes after running a few commands. Compiling the bundle is most of a command's start-up; the
// cache hands V8 the bytecode instead. Node 20 has no code cache for ES modules (and
// module.enableCompileCache is Node 22), hence one CommonJS bundle compiled through vm.Script.
//
// V8 takes a cache only when its version, its flags and the source's LENGTH match, and otherwise
// compiles as usual (cachedDataRejected). Length is not content: a cache of another build of the
// same length would be taken and run the wrong bytecode. So the build opens cli.cjs with a
// comment naming the build (`/*assess-build:<id>*/`) and prefixes the cache with the same line;
// a cache of another build is not handed to V8 at all.
// cli.cjs is the body of a CommonJS module wrapper, written ASCII-only by the build: read as
// latin1 it becomes one external string, without UTF-8 decoding or a copy for Module.wrap.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

type Program = typeof import('./program.js');

export interface LoadedCli {
  program: Program;
  script: Script;
  /** How the cache went: none (no file), stale (another build's), rejected (by V8), used. */
  cache: 'none' | 'stale' | 'rejected' | 'used';
  cacheBytes: number;
  buildId: string | undefined;
}

export const cacheFileOf = (bundle: string): string => `${bundle}.cache`;

const BUILD_ID = /^\/\*assess-build:([\w-]+)\*\//;

/** Undefined when the bundle is not there (a run from src/ with tsx). */
export function loadCli(bundle: string): LoadedCli | undefined {
  let source: string;
  try {
    source = readFileSync(bundle, 'latin1');
  } catch {
    return undefined;
  }
  const buildId = BUILD_ID.exec(source)?.[1];
  let cachedData: Buffer | undefined;
  let cache: LoadedCli['cache'] = 'none';
  try {
    const file = readFileSync(cacheFileOf(bundle));
    const stamp = Buffer.from(`${buildId}\n`, 'latin1');
    if (buildId && file.subarray(0, stamp.length).equals(stamp)) cachedData = file.subarray(stamp.length);
    else cache = 'stale';
  } catch {
    // no cache: compile
  }
  const script = new Script(source, { filename: bundle, cachedData });
  if (cachedData) cache = script.cachedDataRejected ? 'rejected' : 'used';
  const module = { exports: {} as Program };
  const wrapper = script.runInThisContext() as (e: object, r: NodeJS.Require, m: object, f: string, d: string) => void;
  wrapper(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return { program: module.exports, script, cache, cacheBytes: cachedData?.length ?? 0, buildId };
}

/** Writes the cache of everything compiled so far (the build calls it after its warm-up runs). */
export function writeCodeCache(loaded: LoadedCli, bundle: string): number {
  if (!loaded.buildId) throw new Error(`${bundle} does not start with its build id`);
  const data = loaded.script.createCachedData();
  writeFileSync(cacheFileOf(bundle), Buffer.concat([Buffer.from(`${loaded.buildId}\n`, 'latin1'), data]));
  return data.length;
}
