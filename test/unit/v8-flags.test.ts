// src/util/v8-flags.ts in a process of its own (the flags are process-wide), asking V8 itself:
// whether a hot function gets TurboFan code (never once the run flags are set, again for a
// server and inside withOptimiser; `--max-opt` alone did not bring it back, since `--max-opt=1`
// turns `--turbofan` off), whether a code cache made under V8's defaults is taken (not while the
// run flags are set, again after defaultFlags), and that nothing is set unless the entry asked.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/cli.js';

const work = tempDir('assess-v8-flags-');
afterAll(() => work.cleanup());

function run(steps: string): Record<string, boolean> {
  const file = join(work.dir, `probe-${Math.random().toString(36).slice(2)}.mts`);
  writeFileSync(
    file,
    `import { Script } from 'node:vm';
import * as flags from ${JSON.stringify(join(ROOT, 'src/util/v8-flags.ts'))};
const { applyRunFlags, defaultFlags, enableRunFlags, flagProbe, serverFlags, underDefaultFlags, withOptimiser } = flags;
// V8's own answer: bit 64 of %GetOptimizationStatus is "TurboFan code"
const status = new Function('fn', 'fn(1); fn(2); %PrepareFunctionForOptimization(fn); fn(1); fn(2); %OptimizeFunctionOnNextCall(fn); fn(3); return %GetOptimizationStatus(fn);');
const turbofanned = () => (status(new Function('x', 'return x * 2 + 1')) & 64) !== 0;
// a cache of a script made under V8's defaults, and whether V8 takes it now
const source = 'globalThis.answer = function (x) { return [x, x * 2, String(x)]; };'.repeat(20);
const cache = new Script(source, { filename: 'cached.js' }).createCachedData();
// (a name of its own each time: a script compiled again under its name comes from V8's
// in-process compilation cache, which never looks at a code cache)
let n = 0;
const taken = () => !new Script(source, { filename: \`check-\${++n}.js\`, cachedData: cache }).cachedDataRejected;
const loaded = () => process.moduleLoadList.includes('NativeModule v8');
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

describe('V8 flags for the work', () => {
  it('are not set until the work starts: node:v8 is not even loaded', () => {
    const seen = run(`enableRunFlags(); seen.loaded = loaded(); seen.turbofan = turbofanned(); seen.taken = taken();`);
    expect(seen).toEqual({ loaded: false, turbofan: true, taken: true });
  });

  it('once applied: baseline code only, and V8 refuses a cache made under its defaults', () => {
    const seen = run(`enableRunFlags(); applyRunFlags(); seen.loaded = loaded(); seen.turbofan = turbofanned(); seen.taken = taken();`);
    expect(seen).toEqual({ loaded: true, turbofan: false, taken: false });
  });

  it('defaultFlags sets V8 back: the cache is taken again, and the probe says so', () => {
    const seen = run(
      `enableRunFlags(); const probe = flagProbe(); applyRunFlags(); seen.before = taken(); seen.restored = defaultFlags(probe); seen.taken = taken(); seen.turbofan = turbofanned();`,
    );
    expect(seen).toEqual({ before: false, restored: true, taken: true, turbofan: true });
  });

  it('the probe tells when the flags are not V8’s defaults', async () => {
    const seen = run(`const probe = flagProbe(); (await import('node:v8')).setFlagsFromString('--stack-size=900'); seen.restored = defaultFlags(probe);`);
    expect(seen).toEqual({ restored: false });
  });

  it('underDefaultFlags: a cache made under the defaults is taken inside, the run flags are back after', async () => {
    const seen = run(
      `enableRunFlags(); applyRunFlags(); seen.before = taken(); seen.inside = await underDefaultFlags(async () => taken()); seen.after = taken(); seen.turbofan = turbofanned();`,
    );
    expect(seen).toEqual({ before: false, inside: true, after: false, turbofan: false });
  });

  it('a server keeps the optimising compiler, before or after the run flags', () => {
    expect(run(`enableRunFlags(); serverFlags(); seen.loaded = loaded(); applyRunFlags(); seen.turbofan = turbofanned();`)).toEqual({
      loaded: false,
      turbofan: true,
    });
    expect(run(`enableRunFlags(); applyRunFlags(); serverFlags(); seen.turbofan = turbofanned();`)).toEqual({ turbofan: true });
  });

  it('withOptimiser: TurboFan inside only, with the run flags set', async () => {
    const seen = run(
      `enableRunFlags(); await withOptimiser(async () => { seen.inside = turbofanned(); seen.loaded = loaded(); }); seen.after = turbofanned();`,
    );
    expect(seen).toEqual({ inside: true, loaded: true, after: false });
  });

  it('nothing is set where the entry never asked (tests, a library)', () => {
    const seen = run(
      `applyRunFlags(); await withOptimiser(async () => { seen.inside = turbofanned(); }); seen.after = turbofanned(); seen.loaded = loaded(); seen.taken = taken();`,
    );
    expect(seen).toEqual({ inside: true, after: true, loaded: false, taken: true });
  });
});
