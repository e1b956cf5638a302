// Where a manual (docs/*.md) is for the person reading a message. The npm package installs them
// beside dist/ ($(npm root -g)/assess-cli/docs/); the standalone executable carries none; a
// clone has them in docs/. So no message names a bare `docs/x.md`, which is a path in the source
// repository that an installed user does not have.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// true in the standalone executable (scripts/package.mjs)
declare const __ASSESS_SEA__: boolean | undefined;
const SEA = typeof __ASSESS_SEA__ === 'boolean' && __ASSESS_SEA__;

/** The manuals the npm package installs (package.json `files` lists the same). */
export const MANUALS = [
  'cohort.md',
  'commands.md',
  'sandbox.md',
  'scripting.md',
  'mcp.md',
  'v2-to-v3.md',
  'assumptions.md',
] as const;
export type Manual = (typeof MANUALS)[number];

const inRepository = (name: Manual) => `docs/${name} in the source repository`;

/** Where the manuals are, for help's last line. */
export const MANUALS_AT = SEA ? 'docs/*.md in the source repository' : '$(npm root -g)/assess-cli/docs/';

/**
 * For text written at build time (help, which is snapshotted): where a global npm install puts
 * the manual, as a shell word (`less $(npm root -g)/assess-cli/docs/sandbox.md`).
 */
export function manualRef(name: Manual): string {
  return SEA ? inRepository(name) : `$(npm root -g)/assess-cli/docs/${name}`;
}

/** For a message at run time: the manual's path on this machine, where the program was installed from. */
export function manualPath(name: Manual): string {
  if (SEA) return inRepository(name);
  // dist/cli.cjs is CommonJS (the docs are one level up); from the sources (tsx) this is src/util/
  const here = typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));
  for (const up of ['..', '../..']) {
    const path = resolve(here, up, 'docs', name);
    if (existsSync(path)) return path;
  }
  return manualRef(name);
}
