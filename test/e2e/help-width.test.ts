// Help wraps to the terminal it is shown on (a real pseudo-terminal of a set width, or COLUMNS);
// piped help is the 80-column snapshot, byte for byte.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, runAssess, tempDir, NODE } from '../helpers/cli.js';
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

  it.each([70, 100])('at %i columns the text after the options wraps at word boundaries (issue 34)', (cols) => {
    for (const args of ['invite --help', '--help']) {
      const page = helpOnTerminal(cols, args);
      const wide = page.split('\n').filter((l) => !l.trimStart().startsWith('$ ') && [...l].length > cols);
      expect(wide, `${args} at ${cols} columns`).toEqual([]);
    }
    const invite = helpOnTerminal(cols, 'invite --help');
    // every word whole: the paragraph read back as one line is the paragraph as written
    const para = invite.slice(invite.indexOf('Resuming'), invite.indexOf('\n\nExamples')).replace(/\n/g, ' ');
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

  // main.ts answers from the snapshot only at 80 columns (or piped); any other width, or another
  // flag on the line, gets the program's own rendering, which must say the same
  it('the program renders every page as the snapshot has it, at 80 columns, for --help and help', async () => {
    const pages = JSON.parse(readFileSync(join(ROOT, 'dist/help.json'), 'utf8')) as Record<string, string>;
    for (const [path, page] of Object.entries(pages)) {
      const words = path ? path.split(' ') : [];
      for (const args of [[...words, '--help'], ...(words.length ? [['help', ...words]] : [])]) {
        const r = await runInProcess(args);
        expect(r.code, `assess ${args.join(' ')}: ${r.stderr}`).toBe(0);
        expect(r.stdout, `assess ${args.join(' ')}`).toBe(page);
      }
    }
  });

  it('piped help is the 80-column snapshot', async () => {
    const r = await runAssess(['links', 'create', '--help']);
    expect(r.code).toBe(0);
    const pages = JSON.parse(readFileSync(join(ROOT, 'dist/help.json'), 'utf8')) as Record<string, string>;
    expect(r.stdout).toBe(pages['links create']);
    expect(proseLines(r.stdout).filter((l) => l.length > 80)).toEqual([]);
  });
});
