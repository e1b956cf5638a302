// The pure helpers behind the e2e tests — URL userinfo masking, control-character
// escaping, sizes, and output-file identity.
import { linkSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { maskUrlCredentials } from '../../src/api/redact.js';
import { checkFiles } from '../../src/files/output-files.js';
import { parseSize } from '../../src/commands/callbacks/shared/queue.js';
import { toCsvLine } from '../../src/output/csv.js';
import { escapeCell, escapeJson, escapeMessage } from '../../src/output/escape.js';

describe('maskUrlCredentials', () => {
  it.each([
    ['GET https://bob:pw@api.example.com/v3/tests', 'GET https://****@api.example.com/v3/tests'],
    ['http://u:p@t@h:1/x?y=a@b', 'http://****@h:1/x?y=a@b'],
    ['https://token@h.example', 'https://****@h.example'],
    ['https://h.example/a@b and mailto:a@b.c', 'https://h.example/a@b and mailto:a@b.c'],
  ])('%s', (text, masked) => expect(maskUrlCredentials(text)).toBe(masked));
});

describe('escaping', () => {
  it('cells: every control character, bidi overrides too', () => {
    expect(escapeCell('a\u001b[2Jb\nc\td\u009b\u202e')).toBe('a\\x1b[2Jb\\x0ac\\x09d\\x9b\\u202e');
    expect(escapeCell('Zoë 名前')).toBe('Zoë 名前');
  });
  it('messages keep their newlines and tabs', () => {
    expect(escapeMessage('line 1\n\tline 2 \u0007')).toBe('line 1\n\tline 2 \\x07');
  });
  it('bidi marks (LRM, RLM) too', () => {
    expect(escapeCell('a\u200eb\u200fc\u2066d')).toBe('a\\u200eb\\u200fc\\u2066d');
  });
  it('JSON for a terminal: what JSON.stringify leaves raw (DEL, C1, bidi) as \\uXXXX, still the same JSON', () => {
    const value = { name: 'a\u001b[2J\u007f\u009b31m\u202eb\u200f\u2069 名前' };
    const text = escapeJson(JSON.stringify(value, null, 2));
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(text).toContain('a\\u001b[2J\\u007f\\u009b31m\\u202eb\\u200f\\u2069 名前');
    expect(JSON.parse(text)).toEqual(value);
  });
  it('CSV for a terminal: cells escaped as in a table (headers too); exact otherwise', () => {
    const cells = ['section:\u202eX', 'a\u001b[31m\nb', { k: '\u009b' }, 7];
    expect(toCsvLine(cells, { escape: true })).toBe('section:\\u202eX,a\\x1b[31m\\x0ab,"{""k"":""\\x9b""}",7\r\n');
    expect(toCsvLine(cells)).toBe('section:\u202eX,"a\u001b[31m\nb","{""k"":""\u009b""}",7\r\n');
    expect(toCsvLine(['=1+1\u0007'], { escape: true, formulaSafe: true })).toBe("'=1+1\\x07\r\n");
  });
});

describe('parseSize', () => {
  it.each([
    ['64MB', 64 * 1024 ** 2],
    ['512kb', 512 * 1024],
    ['2048', 2048],
    ['1.5G', 1.5 * 1024 ** 3],
  ])('%s', (t, n) => expect(parseSize(t)).toBe(n));
  it('refuses words', () => expect(parseSize('lots')).toBeUndefined());
});

describe('checkFiles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'assess-check-'));
  const input = join(dir, 'in.csv');
  writeFileSync(input, 'email,name\n');
  it('the same file by name, symlink or hard link is refused; distinct files pass', () => {
    symlinkSync(input, join(dir, 'sym.csv'));
    linkSync(input, join(dir, 'hard.csv'));
    for (const p of [input, join(dir, 'sym.csv'), join(dir, 'hard.csv')])
      expect(() =>
        checkFiles([
          { flag: '--csv', path: input, role: 'input' },
          { flag: '--results', path: p, role: 'output' },
        ]),
      ).toThrow(/same file as --csv/);
    expect(() =>
      checkFiles([
        { flag: '--csv', path: input, role: 'input' },
        { flag: '--journal', path: join(dir, 'j.ndjson'), role: 'output' },
      ]),
    ).not.toThrow();
    expect(() => checkFiles([{ flag: '--results', path: dir, role: 'output' }])).toThrow(/is a directory \(EISDIR\)/);
    rmSync(dir, { recursive: true, force: true });
  });
});
