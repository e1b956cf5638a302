// The CLI's version: package.json's, put in by the build (scripts/build.mjs defines
// __ASSESS_VERSION__). Unbuilt runs (tsx, vitest) read package.json itself.
import { createRequire } from 'node:module';

declare const __ASSESS_VERSION__: string | undefined;

export const VERSION: string =
  typeof __ASSESS_VERSION__ === 'string'
    ? __ASSESS_VERSION__
    : (createRequire(import.meta.url)('../package.json') as { version: string }).version;
