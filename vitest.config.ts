import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One test file per core; forks (not threads) because some suites chdir or handle signals.
    pool: 'forks',
    // One module graph per worker, not per file: re-importing the program, zod schemas and the
    // sandbox for each of ~100 files cost more CPU than the tests themselves (in-process suites:
    // 58 s → 18 s of CPU). Tests restore what they change (cwd, env, listeners) and the whole
    // suite passes either way; \`npx vitest run --isolate\` brings isolation back to check.
    isolate: false,
    poolOptions: { forks: { maxForks: Math.max(1, availableParallelism()), minForks: 1 } },
    env: { NO_COLOR: '1', CI: 'true' },
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
