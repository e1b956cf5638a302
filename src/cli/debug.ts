// Whether a run logs debug lines (HTTP exchanges, the compile cache, a failure's stack): decided
// here only, once per run, from the command line and the environment (GUIDE: --debug or ASSESS_DEBUG=1).
import type { Env } from '../context.js';

export function debugRequested(argv: readonly string[], env: Env): boolean {
  return env.ASSESS_DEBUG === '1' || argv.includes('--debug');
}
