// src/util/optimiser.ts in a process of its own (the flags are process-wide), asking V8 itself
// whether a hot function gets TurboFan code: never after restrictOptimiser (the CLI), again after
// liftOptimiser (the servers: `--max-opt` alone did not bring it back, since `--max-opt=1` turns
// `--turbofan` off), inside withOptimiser, and not after it.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/cli.js';

const work = tempDir('assess-optimiser-');
afterAll(() => work.cleanup());

function run(steps: string): Record<string, boolean> {
  const file = join(work.dir, `probe-${Math.random().toString(36).slice(2)}.mts`);
  writeFileSync(
    file,
    `import { liftOptimiser, restrictOptimiser, withOptimiser } from ${JSON.stringify(join(ROOT, 'src/util/optimiser.ts'))};
// V8's own answer: bit 64 of %GetOptimizationStatus is "TurboFan code"
const status = new Function('fn', 'fn(1); fn(2); %PrepareFunctionForOptimization(fn); fn(1); fn(2); %OptimizeFunctionOnNextCall(fn); fn(3); return %GetOptimizationStatus(fn);');
const turbofanned = () => (status(new Function('x', 'return x * 2 + 1')) & 64) !== 0;
const seen: Record<string, boolean> = {};
${steps}
process.stdout.write(JSON.stringify(seen));
`,
  );
  return JSON.parse(execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', file], { cwd: ROOT, encoding: 'utf8' })) as Record<
    string,
    boolean
  >;
}

describe('the optimising compiler', () => {
  it('is off after restrictOptimiser and back after liftOptimiser (a server)', () => {
    const seen = run(`seen.before = turbofanned(); restrictOptimiser(); seen.restricted = turbofanned(); liftOptimiser(); seen.lifted = turbofanned();`);
    expect(seen).toEqual({ before: true, restricted: false, lifted: true });
  });

  it('is on inside withOptimiser only', async () => {
    const seen = run(`restrictOptimiser(); await withOptimiser(async () => { seen.inside = turbofanned(); }); seen.after = turbofanned();`);
    expect(seen).toEqual({ inside: true, after: false });
  });

  it('withOptimiser leaves a process it never restricted as it was (tests, tsx)', () => {
    const seen = run(`await withOptimiser(async () => { seen.inside = turbofanned(); }); seen.after = turbofanned();`);
    expect(seen).toEqual({ inside: true, after: true });
  });
});
