// `assess` alone: a screen of the commands a first cohort needs, naming only commands that exist,
// broken at word boundaries at any width from 40 columns.
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { COMMON, summary } from '../../src/cli/summary.js';
import { buildProgram } from '../../src/cli/program.js';
import { displayWidth } from '../../src/output/width.js';
import { memoryProcess } from '../helpers/memory-io.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('the summary `assess` prints alone', () => {
  it.each([40, 60, 80, 120, 200])('at %i columns: at most 25 lines, none wider, no word broken', (cols) => {
    const text = summary(cols);
    const lines = text.replace(/\n$/, '').split('\n');
    expect(lines.length).toBeLessThanOrEqual(25);
    // only what cannot be broken may be wider: a path to a manual, on a line of its own
    const whole = (l: string) => !/\s/.test(l.trim().replace('$(npm root -g)', ''));
    expect(lines.filter((l) => displayWidth(l) > cols && !whole(l))).toEqual([]);
    // every word whole (a narrow one lists the commands without what each does)
    const all = new Set(words(summary(10_000)));
    expect(words(text).filter((w) => !all.has(w))).toEqual([]);
    if (cols >= 60) expect(words(text)).toEqual(words(summary(10_000)));
  });

  it('names only commands the program has, with the arguments their usage line gives', async () => {
    const rt = {
      proc: memoryProcess({ NO_COLOR: '1' }),
      signal: new AbortController().signal,
      debug: false,
      exitHooks: [],
    };
    const program = await buildProgram(rt);
    for (const [line] of COMMON) {
      const names = line.split(' ').filter((w) => !/^[<[]/.test(w));
      let cmd: Command | undefined = program;
      for (const name of names) cmd = cmd?.commands.find((c) => c.name() === name);
      expect(cmd, line).toBeDefined();
      const args = line.split(' ').slice(names.length);
      for (const a of args) expect(cmd!.usage(), line).toContain(a);
    }
  });
});
