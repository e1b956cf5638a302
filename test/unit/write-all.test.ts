// Writes that must not be taken for done: the one write path on a real small disk (tmpfs), and
// the exit-code map's last resort for file-system errors (exit 2 with the place, never "a bug").
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AtomicFile, writeFileAtomic } from '../../src/files/atomic.js';
import { describeError, exitCodeFor } from '../../src/cli/exit-codes.js';
import { UsageError } from '../../src/errors.js';
import { writeAllSync } from '../../src/util/write-all.js';
import { mountTmpfs, unmountable, type Tmpfs } from '../helpers/tmpfs.js';

const skip = unmountable();
if (skip) console.warn(`write-all.test.ts (tmpfs part) skipped: ${skip}`);

describe.skipIf(skip !== null)('writing onto a disk with 64 KiB: every byte, or an error naming the file', () => {
  const mounts: Tmpfs[] = [];
  const disk = () => {
    const t = mountTmpfs('64k');
    mounts.push(t);
    return t;
  };
  afterAll(() => mounts.forEach((m) => m.close()));

  it('write(2) takes part of a large write without an error: the count is the only sign', () => {
    const t = disk();
    const fd = openSync(join(t.dir, 'f'), 'w');
    try {
      expect(writeSync(fd, Buffer.alloc(100 * 1024))).toBeLessThan(100 * 1024);
    } finally {
      closeSync(fd);
    }
  });

  it('writeAllSync writes all or throws the cause (ENOSPC)', () => {
    const t = disk();
    const fd = openSync(join(t.dir, 'f'), 'w');
    try {
      expect(writeAllSync(fd, Buffer.alloc(8 * 1024, 1))).toBe(8 * 1024);
      expect(() => writeAllSync(fd, Buffer.alloc(100 * 1024))).toThrow(expect.objectContaining({ code: 'ENOSPC' }));
    } finally {
      closeSync(fd);
    }
  });

  it('AtomicFile: a file that does not fit fails its commit (exit 2, naming it) and leaves nothing', () => {
    const t = disk();
    const target = join(t.dir, 'results.ndjson');
    const f = new AtomicFile(target, 'the results');
    const line = `${JSON.stringify({ outcome: 'invited', pad: 'y'.repeat(200) })}\n`;
    let err: unknown;
    try {
      for (let i = 0; i < 400; i++) f.write(line); // ~90 KB: a drain fails on the way, or the commit
      f.commit();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe(`cannot write the results ${target}: no space left on the device (ENOSPC)`);
    expect(() => f.write(line)).toThrow(err as Error); // failed for good: nothing more goes in
    f.discard();
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(t.dir)).toEqual([]);
  });

  it('writeFileAtomic: all or nothing, the old file kept', () => {
    const t = disk();
    const target = join(t.dir, 'config.json');
    writeFileAtomic(target, '{"profiles":{}}\n');
    expect(() => writeFileAtomic(target, 'z'.repeat(100 * 1024))).toThrow(
      /cannot write the file .*config\.json: no space left on the device \(ENOSPC\)/,
    );
    expect(readFileSync(target, 'utf8')).toBe('{"profiles":{}}\n');
    expect(readdirSync(t.dir)).toEqual(['config.json']);
    expect(statSync(target).mode & 0o777).toBe(0o600);
  });
});

describe('a file-system error that reaches the exit-code map is exit 2 naming the place', () => {
  const sysErr = (code: string, syscall: string, path: string) =>
    Object.assign(new Error(`${code}: oops, ${syscall} '${path}'`), { code, syscall, path, errno: -1 });
  it.each([
    ['ENOSPC', 'write', /no space left on the device/],
    ['EACCES', 'open', /permission denied/],
    ['EROFS', 'mkdir', /read-only file system/],
    ['EISDIR', 'open', /it is a directory/],
    ['EDQUOT', 'write', /disk quota exceeded/],
  ])('%s is exit 2 naming the place, with what to do', (code, syscall, cause) => {
    const err = sysErr(code, syscall, '/some/place/file');
    expect(exitCodeFor(err)).toBe(2);
    const d = describeError(err);
    expect(d.message).toContain('/some/place/file');
    expect(d.message).toMatch(cause);
    expect(d.hint).toMatch(/choose another place|free space|permissions/);
    expect(d.hint).not.toMatch(/bug/);
  });

  it('an error that is not the file system is still exit 1', () => {
    expect(exitCodeFor(new Error('something else'))).toBe(1);
    expect(describeError(new Error('something else')).hint).toMatch(/bug/);
  });
});
