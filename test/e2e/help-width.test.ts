// Help wraps to the width it is given: a real pseudo-terminal of a set width, or COLUMNS (piped
// too), else 80 columns.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, runAssess, tempDir, NODE } from '../helpers/cli.js';
import { helpPagesOfBuild } from '../helpers/help-pages.js';
import { runInProcess } from '../helpers/in-process.js';

function helpOnTerminal(cols: number, args: string, env: Record<string, string> = {}): string {
  const cfg = tempDir();
  try {
    const out = execFileSync('script', ['-qec', `stty cols ${cols}; ${NODE} ${BIN} ${args}`, '/dev/null'], {
      env: { PATH: process.env.PATH, HOME: cfg.dir, ASSESS_CONFIG_DIR: cfg.dir, NO_COLOR: '1', TERM: 'xterm', ...env },
      encoding: 'utf8',
    });
    return out.replace(/\r/g, '');
  } finally {
    cfg.cleanup();
  }
}

// Example lines are commands to copy, never wrapped; everything else must fit.
const proseLines = (page: string) =>
  page.split('\n').filter((l) => !l.trimStart().startsWith('$ ') && !l.startsWith('Exit codes:'));

describe('help width', () => {
  it.each([60, 100, 140])('on a %i-column terminal no prose line is wider', (cols) => {
    for (const args of ['reattempt --help', 'help links create', 'sandbox --help']) {
      const page = helpOnTerminal(cols, args);
      expect(page).toMatch(/^Usage: assess /);
      const wide = proseLines(page).filter((l) => l.length > cols);
      expect(wide, `${args} at ${cols} columns`).toEqual([]);
    }
  });

  it.each([70, 100])('at %i columns the text after the options wraps at word boundaries', (cols) => {
    for (const args of ['invite --help', '--help']) {
      const page = helpOnTerminal(cols, args);
      const wide = page.split('\n').filter((l) => !l.trimStart().startsWith('$ ') && [...l].length > cols);
      expect(wide, `${args} at ${cols} columns`).toEqual([]);
    }
    const invite = helpOnTerminal(cols, 'invite --help');
    // every word whole: the paragraph read back as one line is the paragraph as written
    const para = invite.slice(invite.indexOf('Resuming'), invite.indexOf('\n\nMore examples')).replace(/\n/g, ' ');
    expect(para).toContain('After Ctrl-C nothing is sent twice. After kill -9,');
    expect(para).toContain('the re-run names them and invites them without an e-mail');
  });

  it('wraps to the width: a wider terminal gives fewer lines', () => {
    const narrow = helpOnTerminal(60, 'links create --help').split('\n').length;
    const wide = helpOnTerminal(160, 'links create --help').split('\n').length;
    expect(wide).toBeLessThan(narrow);
  });

  it('COLUMNS wins over the terminal size', () => {
    const page = helpOnTerminal(160, 'links create --help', { COLUMNS: '60' });
    expect(proseLines(page).filter((l) => l.length > 60)).toEqual([]);
  });

  it('`help x y` and `x y --help` print the same page, the one docs/commands.md shows', async () => {
    const pages = await helpPagesOfBuild();
    for (const [path, page] of Object.entries(pages)) {
      const words = path ? path.split(' ') : [];
      for (const args of [[...words, '--help'], ...(words.length ? [['help', ...words]] : [])]) {
        const r = await runInProcess(args);
        expect(r.code, `assess ${args.join(' ')}: ${r.stderr}`).toBe(0);
        expect(r.stdout, `assess ${args.join(' ')}`).toBe(page);
      }
    }
  });

  it('piped help fits COLUMNS (COLUMNS=70 assess invite --help | cat is 70 wide), else 80', async () => {
    for (const [columns, cols] of [
      ['70', 70],
      ['40', 40],
      [undefined, 80],
    ] as const) {
      const r = await runAssess(['invite', '--help'], { env: { COLUMNS: columns } });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Usage: assess invite/);
      expect(
        proseLines(r.stdout).filter((l) => [...l].length > cols),
        `COLUMNS=${columns}`,
      ).toEqual([]);
    }
    const wide = await runAssess(['invite', '--help'], { env: { COLUMNS: '140' } });
    expect(proseLines(wide.stdout).some((l) => l.length > 80)).toBe(true);
  });
});
