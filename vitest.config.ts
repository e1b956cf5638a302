import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/slow-first-sequencer.js';

const FORKS = Math.max(2, 2 * availableParallelism());

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // generous: a test that runs the binary dozens of times needs minutes on a loaded machine,
    // and a timeout is only how long a hang takes to be reported
    testTimeout: 600_000,
    hookTimeout: 300_000,
    // Two test files per core: many e2e files mostly wait (on the binaries they run, servers,
    // backoff), so a second file per core fills the idle time. Forks (not threads): some suites
    // chdir or handle signals.
    pool: 'forks',
    // One module graph per worker, not per file: re-importing the program, zod schemas and the
    // sandbox for each of ~100 files cost more CPU than the tests themselves (in-process suites:
    // 58 s → 18 s of CPU). Tests restore what they change (cwd, env, listeners) and the whole
    // suite passes either way; `npx vitest run --isolate` brings isolation back to check.
    isolate: false,
    // min = max: with isolate: false, tinypool retiring an idle fork made vitest 3 end with
    // "Terminating worker thread" (exit 1) although every test passed.
    poolOptions: { forks: { maxForks: FORKS, minForks: FORKS } },
    // TZ: times on a terminal are in the machine's zone; tests name theirs (test/helpers/cli.ts too)
    env: { NO_COLOR: '1', CI: 'true', TZ: 'UTC' },
    // zod's settings as the program makes them first (English messages, which zod/mini does not
    // load itself; no JIT), for tests that import a module directly rather than through program.ts;
    // and the removal of temp dirs a test file left
    setupFiles: ['./src/util/zod-settings.ts', './test/setup-temp-dirs.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    sequence: { sequencer: SlowFirstSequencer },
  },
});
