// An output named through a symlink is written through it: the temp file goes beside the file
// the link leads to and is renamed onto that file, so the link stays a link. A link to a device,
// a FIFO, a directory or /proc is refused (exit 2) before anything is written.
import { execFileSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import { AtomicFile, writeFileAtomic } from '../../src/files/atomic.js';
import { checkFiles } from '../../src/files/output-files.js';
import { tempDir } from '../helpers/cli.js';

const tmp = tempDir('assess-atomic-link-');
afterAll(() => tmp.cleanup());
let n = 0;
const fresh = () => {
  const d = join(tmp.dir, `d${++n}`);
  mkdirSync(d);
  return d;
};
const temps = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.part'));

describe('atomic writes through a symlink', () => {
  it('a chain of links to a file in another directory: the file gets the content (0600), the links stay', () => {
    const d = fresh();
    mkdirSync(join(d, 'dotfiles'));
    const real = join(d, 'dotfiles', 'real.json');
    writeFileSync(real, 'old\n', { mode: 0o644 });
    symlinkSync('dotfiles/real.json', join(d, 'one'));
    symlinkSync(join(d, 'one'), join(d, 'two'));
    writeFileAtomic(join(d, 'two'), 'new\n');
    expect(lstatSync(join(d, 'two')).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(d, 'one')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(d, 'one'))).toBe('dotfiles/real.json');
    expect(readFileSync(real, 'utf8')).toBe('new\n');
    expect(statSync(real).mode & 0o777).toBe(0o600);
    expect([...temps(d), ...temps(join(d, 'dotfiles'))]).toEqual([]);
  });

  it('a dangling link: the file it names is created, the link stays', () => {
    const d = fresh();
    mkdirSync(join(d, 'sub'));
    symlinkSync('sub/results.ndjson', join(d, 'link.ndjson'));
    const f = new AtomicFile(join(d, 'link.ndjson'), 'the results');
    f.write('{"line":2}\n');
    f.commit();
    expect(f.real).toBe(join(d, 'sub', 'results.ndjson'));
    expect(lstatSync(join(d, 'link.ndjson')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(d, 'sub', 'results.ndjson'), 'utf8')).toBe('{"line":2}\n');
    expect(statSync(join(d, 'sub', 'results.ndjson')).mode & 0o777).toBe(0o600);
    expect([...temps(d), ...temps(join(d, 'sub'))]).toEqual([]);
  });

  it.each([
    ['/dev/null', () => '/dev/null', /is a character device, not a regular file/],
    [
      'a FIFO',
      (d: string) => (execFileSync('mkfifo', [join(d, 'fifo')]), join(d, 'fifo')),
      /is a FIFO, not a regular file/,
    ],
    ['a directory', (d: string) => (mkdirSync(join(d, 'dir')), join(d, 'dir')), /is a directory \(EISDIR\)/],
    ['/proc', () => '/proc/self/status', /is a \/proc entry, not a regular file/],
  ])('a link to %s: refused (exit 2) naming the file, the link and its target untouched', (_name, make, why) => {
    const d = fresh();
    const to = make(d);
    const link = join(d, 'out.ndjson');
    symlinkSync(to, link);
    const kind = lstatSync(to).mode;
    let err: unknown;
    try {
      writeFileAtomic(link, 'x\n', 'the results');
    } catch (e) {
      err = e;
    }
    expect(exitCodeFor(err)).toBe(2);
    expect((err as Error).message).toMatch(new RegExp(`^the results: ${link}`));
    expect((err as Error).message).toMatch(why);
    expect(() => new AtomicFile(link, 'the summary')).toThrow(why);
    expect(() => checkFiles([{ flag: '--results', path: link, role: 'output', replaced: true }])).toThrow(
      new RegExp(`^--results: ${link}.*${why.source}`),
    );
    expect(readlinkSync(link)).toBe(to);
    expect(lstatSync(to).mode).toBe(kind);
    expect(temps(d)).toEqual([]);
  });

  it('a loop of links is refused (exit 2), not followed forever', () => {
    const d = fresh();
    symlinkSync(join(d, 'b'), join(d, 'a'));
    symlinkSync(join(d, 'a'), join(d, 'b'));
    expect(() => writeFileAtomic(join(d, 'a'), 'x')).toThrow(/too many symbolic links \(ELOOP\)/);
  });
});
