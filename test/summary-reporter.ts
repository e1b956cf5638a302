// Ends every run with one plain line, 'N passed, N failed', that any CI log reader understands
// (plus the files that failed outside their tests, e.g. in an afterAll)
// (vitest's own summary is coloured and spread over several lines).
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    let filesFailed = 0; // a file whose hooks failed although its tests passed (an afterAll that threw)
    for (const m of testModules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      const tests = [...m.children.allTests()];
      if (m.state() === 'failed' && !tests.length)
        failed++; // a file that failed to load
      else if (m.state() === 'failed' && !tests.some((t) => t.result().state === 'failed')) filesFailed++;
    }
    const files = filesFailed ? `, ${filesFailed} file${filesFailed > 1 ? 's' : ''} failed outside its tests` : '';
    const line = `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${files}`;
    // After vitest's own summary, which it prints later than this hook runs.
    process.once('exit', () => process.stdout.write(`\n${line}\n`));
  }
}
