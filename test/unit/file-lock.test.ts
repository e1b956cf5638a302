// The lock by identity (real path + device/inode) that a hard link, a symlink or `./name` cannot
// pass (src/util/file-lock.ts, the sandbox's state lock).
import { linkSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tryFileLock } from '../../src/util/file-lock.js';
import { tempDir } from '../helpers/cli.js';

const tmp = tempDir('assess-journal-outcomes-');
afterAll(() => tmp.cleanup());
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
