import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One test file per core; forks (not threads) because some suites chdir or handle signals.
    pool: 'forks',
    poolOptions: { forks: { maxForks: Math.max(1, availableParallelism()), minForks: 1 } },
    env: { NO_COLOR: '1', CI: 'true' },
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
