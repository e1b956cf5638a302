// The real process's stderr on a pipe: written with fs.writeSync (no net.Socket, no node:net),
// in order, whole, and handed to the stream for good when a write would block.
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fdWriter } from '../../src/cli/real-process.js';
import { tempDir } from '../helpers/cli.js';

const t = tempDir('assess-fd-writer-');
afterAll(() => t.cleanup());

/** A stand-in for process.stderr that records what it is given. */
function stream() {
  const got: string[] = [];
  return { got, s: { write: (c: string | Uint8Array) => (got.push(Buffer.from(c).toString()), true) } as never };
}

describe('fdWriter', () => {
  it('writes strings and bytes to the descriptor, whole and in order', () => {
    const path = join(t.dir, 'err.txt');
    const fd = openSync(path, 'w');
    const w = fdWriter(fd, () => {
      throw new Error('no fallback expected');
    });
    w.write('error: naïve ✓\n');
    w.write(Buffer.from('  hint\n'));
    closeSync(fd);
    expect(readFileSync(path, 'utf8')).toBe('error: naïve ✓\n  hint\n');
    expect(w.isTTY).toBe(false);
  });

  it('goes on after a short write', () => {
    const seen: string[] = [];
    const short = ((_fd: number, b: Uint8Array, off: number, len: number) => {
      const n = Math.min(3, len);
      seen.push(Buffer.from(b.subarray(off, off + n)).toString());
      return n;
    }) as never;
    fdWriter(9, () => stream().s, short).write('abcdefgh');
    expect(seen).toEqual(['abc', 'def', 'gh']);
  });

  it('stops at a write that takes nothing and gives no reason, instead of trying for ever', () => {
    let calls = 0;
    const stuck = (() => {
      if (++calls > 1) throw Object.assign(new Error('tried again'), { code: 'EAGAIN' });
      return 0;
    }) as never;
    fdWriter(9, () => stream().s, stuck).write('abc');
    expect(calls).toBe(1);
  });

  it('hands the rest, and everything after, to the stream when a write would block (EAGAIN)', () => {
    const fallback = stream();
    let calls = 0;
    const blocking = ((_fd: number, _b: Uint8Array, _off: number, len: number) => {
      if (++calls === 1) return Math.min(4, len);
      throw Object.assign(new Error('EAGAIN'), { code: 'EAGAIN' });
    }) as never;
    const w = fdWriter(9, () => fallback.s, blocking);
    w.write('0123456789');
    w.write('next\n');
    expect(fallback.got).toEqual(['456789', 'next\n']);
    expect(calls).toBe(2); // the descriptor is not tried again
  });

  it('drops what cannot be written when nobody reads (EPIPE), without throwing', async () => {
    const broken = (() => {
      throw Object.assign(new Error('EPIPE'), { code: 'EPIPE' });
    }) as never;
    const w = fdWriter(9, () => stream().s, broken);
    const called = new Promise((resolve) => w.write('lost\n', resolve));
    expect(await called).toBe(null);
  });
});
