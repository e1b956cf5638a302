// Ends every run with one plain line, 'N passed, N failed', that any CI log reader understands
// (vitest's own summary is coloured and spread over several lines).
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of testModules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (m.state() === 'failed' && ![...m.children.allTests()].length) failed++; // a file that failed to load
    }
    const line = `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
    // After vitest's own summary, which it prints later than this hook runs.
    process.once('exit', () => process.stdout.write(`\n${line}\n`));
  }
}
