// Issue 31 items 5 and 6, as units: what the journal counts as a possible e-mail across runs
// (`s` lines, `f` lines that say the service surely refused, flags on any line), and the lock
// by identity (real path + device/inode) that a hard link, a symlink or `./name` cannot pass.
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Journal } from '../../src/bulk/journal.js';
import { tryFileLock } from '../../src/util/file-lock.js';
import { tempDir } from '../helpers/cli.js';

const tmp = tempDir('assess-journal-outcomes-');
afterAll(() => tmp.cleanup());
let n = 0;
const fresh = (lines: unknown[] = []) => {
  const path = join(tmp.dir, `j${++n}.ndjson`);
  writeFileSync(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return path;
};

describe('journal: every outcome, and who may have two e-mails', () => {
  it('two attempts that may have e-mailed make a candidate "maybe twice", however many runs apart', async () => {
    const j = await Journal.open(
      fresh([{ s: 'a' }, { s: 'b' }, { k: 'b', outcome: 'invited' }, { s: 'a' }, { s: 'c' }]),
    );
    expect(j.unreadable).toBe(0);
    expect(j.maybeEmailedTwice('a')).toBe(true);
    expect(j.maybeEmailedTwice('b')).toBe(false);
    expect(j.maybeEmailedTwice('c')).toBe(false);
    expect(j.inFlightEarlier().sort()).toEqual(['a', 'c']);
    j.close();
  });

  it('an attempt the service surely refused (mayHaveSent false) e-mailed nobody; an uncertain failure counts', async () => {
    const j = await Journal.open(
      fresh([
        { s: 'a' },
        { f: 'a', mayHaveSent: false, error: { status: 400 } },
        { s: 'a' },
        { s: 'b' },
        { f: 'b', mayHaveSent: true },
        { s: 'b' },
      ]),
    );
    expect(j.maybeEmailedTwice('a')).toBe(false);
    expect(j.maybeEmailedTwice('b')).toBe(true);
    j.close();
  });

  it('markSending says (and writes) when an earlier attempt may have e-mailed; the flag persists in the file', async () => {
    const path = fresh([{ s: 'a' }]);
    const j = await Journal.open(path);
    expect(j.markSending('a')).toBe(true);
    expect(j.markSending('b')).toBe(false);
    j.markFailed('b', { line: 3 }, false);
    j.append({ k: 'a', outcome: 'existing', maybeEmailedTwice: true });
    j.close();
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.slice(1).map(({ at: _at, ...l }) => l)).toEqual([
      { s: 'a', maybeEmailedTwice: true },
      { s: 'b' },
      { f: 'b', mayHaveSent: false, line: 3 },
      { k: 'a', outcome: 'existing', maybeEmailedTwice: true },
    ]);
    const again = await Journal.open(path);
    expect(again.emailedTwice()).toEqual(['a']);
    expect(again.inFlightEarlier()).toEqual([]);
    again.close();
  });
});

describe('tryFileLock: one lock per file, whatever its name', () => {
  it('a hard link in another directory, a symlink and a relative spelling meet the holder', () => {
    const dir = join(tmp.dir, 'lock');
    mkdirSync(join(dir, 'other'), { recursive: true });
    const file = join(dir, 'f.ndjson');
    writeFileSync(file, '');
    linkSync(file, join(dir, 'other', 'hard.ndjson'));
    symlinkSync(file, join(dir, 'other', 'soft.ndjson'));
    const held = tryFileLock(file);
    expect(held.lock).toBeDefined();
    try {
      for (const name of [
        join(dir, 'other', 'hard.ndjson'),
        join(dir, 'other', 'soft.ndjson'),
        relative(process.cwd(), file),
      ])
        expect(tryFileLock(name).holder, name).toBe(process.pid);
    } finally {
      held.lock!.release();
    }
    const hard = tryFileLock(join(dir, 'other', 'hard.ndjson'));
    expect(hard.lock).toBeDefined();
    expect(tryFileLock(file).holder).toBe(process.pid);
    hard.lock!.release();
  });

  it('a file replaced by rename keeps its inode pinned: new files that reuse inode numbers are not "locked"', () => {
    const dir = join(tmp.dir, 'reuse');
    mkdirSync(dir);
    const state = join(dir, 'state.json');
    writeFileSync(state, '{}');
    const held = tryFileLock(state);
    expect(held.lock).toBeDefined();
    try {
      // a save replaces the file: its old inode is free unless the lock keeps it open
      writeFileSync(join(dir, 'next.json'), '{}');
      renameSync(join(dir, 'next.json'), state);
      for (let i = 0; i < 20; i++) {
        const other = join(dir, `other${i}.json`);
        writeFileSync(other, '');
        const got = tryFileLock(other);
        expect(got.holder, other).toBeUndefined();
        got.lock!.release();
        rmSync(other);
      }
    } finally {
      held.lock!.release();
    }
  });
});
