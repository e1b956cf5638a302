// Loads the program (dist/cli.cjs) with V8's code cache (dist/cli.cjs.cache), which the build
// writes after running a few commands. Compiling the bundle is most of a command's start-up; the
// cache hands V8 the bytecode instead. Node 20 has no code cache for ES modules (and
// module.enableCompileCache is Node 22), hence one CommonJS bundle compiled through vm.Script.
//
// V8 uses the cache only when its version, its flags and the source's length match; otherwise it
// compiles as usual (cachedDataRejected) — never a different program, at worst a slower start.
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
  /** undefined when there was no cache file, else whether V8 refused it. */
  cacheRejected: boolean | undefined;
  cacheBytes: number;
}

export const cacheFileOf = (bundle: string): string => `${bundle}.cache`;

/** Undefined when the bundle is not there (a run from src/ with tsx). */
export function loadCli(bundle: string): LoadedCli | undefined {
  let source: string;
  try {
    source = readFileSync(bundle, 'latin1');
  } catch {
    return undefined;
  }
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFileOf(bundle));
  } catch {
    // no cache: compile
  }
  const script = new Script(source, { filename: bundle, cachedData });
  const module = { exports: {} as Program };
  const wrapper = script.runInThisContext() as (e: object, r: NodeJS.Require, m: object, f: string, d: string) => void;
  wrapper(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return { program: module.exports, script, cacheRejected: cachedData && script.cachedDataRejected, cacheBytes: cachedData?.length ?? 0 };
}

/** Writes the cache of everything compiled so far (the build calls it after its warm-up runs). */
export function writeCodeCache(loaded: LoadedCli, bundle: string): number {
  const data = loaded.script.createCachedData();
  writeFileSync(cacheFileOf(bundle), data);
  return data.length;
}
