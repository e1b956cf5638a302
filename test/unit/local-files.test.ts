// Local files are regular files of ours: a private directory is checked before use (the compile
// cache's), a state file that is not a regular file is refused without opening it, a cache that
// is not a small regular file of this user's is not read, what killed writers left is removed by
// the next writer there, and another user's link or file in a sticky shared directory (/tmp) is
// never written through.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  lchownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import { writeFileAtomic } from '../../src/files/atomic.js';
import { followLinks, openForAppend, writeTarget } from '../../src/files/output-files.js';
import { removeLeftovers } from '../../src/util/leftovers.js';
import { releasePidLock, tryPidLock } from '../../src/util/pid-lock.js';
import { privateDirProblem } from '../../src/util/private-dir.js';
import { readOwnCache, refuseIrregularState } from '../../src/util/regular-file.js';
import { tempDir } from '../helpers/cli.js';

const tmp = tempDir('assess-local-files-');
afterAll(() => tmp.cleanup());
let n = 0;
const fresh = () => {
  const d = join(tmp.dir, `d${++n}`);
  mkdirSync(d, { mode: 0o700 });
  chmodSync(d, 0o700);
  return d;
};
const me = process.getuid!();
/** A pid no process has: above any pid_max. */
const DEAD = 999_999_999;

function usage(f: () => unknown): Error {
  try {
    f();
  } catch (err) {
    expect(exitCodeFor(err)).toBe(2);
    return err as Error;
  }
  throw new Error('expected a usage error');
}

describe('a private directory (the compile cache)', () => {
  it('is ours, a directory, 0700 (or, for a parent, writable by us only)', () => {
    const d = fresh();
    expect(privateDirProblem(d, 0o700)).toBeUndefined();
    chmodSync(d, 0o755);
    expect(privateDirProblem(d, 0o700)).toBe(`${d} has mode 0755, not 0700`);
    expect(privateDirProblem(d)).toBeUndefined();
    chmodSync(d, 0o775);
    expect(privateDirProblem(d)).toBe(`${d} has mode 0775: others may change it`);
    symlinkSync(d, `${d}-link`);
    expect(privateDirProblem(`${d}-link`, 0o700)).toBe(`${d}-link is a symbolic link`);
    chmodSync(d, 0o700);
    expect(privateDirProblem(d, 0o700, me + 1)).toBe(`${d} belongs to another user (uid ${me})`);
  });
});

describe('a state file the user names', () => {
  it('may be missing or a regular file; a FIFO, a device, a directory is exit 2 naming the flag', () => {
    const d = fresh();
    refuseIrregularState(join(d, 'new.json'), '--state');
    writeFileSync(join(d, 'ok.json'), '{}');
    refuseIrregularState(join(d, 'ok.json'), '--state');
    execFileSync('mkfifo', [join(d, 'fifo')]);
    expect(usage(() => refuseIrregularState(join(d, 'fifo'), '--state')).message).toBe(
      `--state: ${join(d, 'fifo')} is a FIFO, not a regular file`,
    );
    expect(usage(() => refuseIrregularState('/dev/zero', '--state')).message).toMatch(/is a character device/);
    expect(usage(() => refuseIrregularState(d, '--state')).message).toMatch(/is a directory, not a regular file/);
  });
});

describe('a cache file', () => {
  it('is read only when it is a small regular file of this user, never blocking', () => {
    const d = fresh();
    writeFileSync(join(d, 'c.json'), '{"a":1}');
    expect(readOwnCache(join(d, 'c.json'), 100)).toBe('{"a":1}');
    expect(readOwnCache(join(d, 'c.json'), 6)).toBeUndefined();
    expect(readOwnCache(join(d, 'c.json'), 100, me + 1)).toBeUndefined();
    expect(readOwnCache(join(d, 'missing.json'), 100)).toBeUndefined();
    symlinkSync(join(d, 'c.json'), join(d, 'link.json'));
    expect(readOwnCache(join(d, 'link.json'), 100)).toBeUndefined();
    symlinkSync('/dev/zero', join(d, 'zero.json'));
    expect(readOwnCache(join(d, 'zero.json'), 100)).toBeUndefined();
    execFileSync('mkfifo', [join(d, 'fifo.json')]); // a blocking open would hang this test
    expect(readOwnCache(join(d, 'fifo.json'), 100)).toBeUndefined();
    expect(readOwnCache(d, 100)).toBeUndefined();
  });
});

describe('what killed writers left', () => {
  it("the first temp a run makes in a directory removes dead writers' .part files there, once", () => {
    const d = fresh();
    writeFileSync(join(d, `.report-ann.pdf.${DEAD}.0123abcd.part`), '%PDF-1.4 half'); // kill -9 mid-download
    writeFileSync(join(d, `.config.json.${DEAD}.89abcdef.part`), '{'); // kill -9 during config set
    writeFileSync(join(d, `.live.pdf.${process.pid}.0123abcd.part`), 'a download of this process');
    writeFileSync(join(d, '.report.pdf.123.part'), 'not a name of ours');
    writeFileAtomic(join(d, 'config.json'), '{"a":1}\n');
    expect(readdirSync(d).sort()).toEqual([
      `.live.pdf.${process.pid}.0123abcd.part`,
      '.report.pdf.123.part',
      'config.json',
    ]);
    // swept once per process and directory: what comes later waits for the next run
    writeFileSync(join(d, `.late.pdf.${DEAD}.fedcba98.part`), 'left after the sweep');
    writeFileAtomic(join(d, 'other.json'), '{"b":2}\n');
    expect(existsSync(join(d, `.late.pdf.${DEAD}.fedcba98.part`))).toBe(true);
  });

  it("a lock's leftover link source is removed by the next lock taken there", () => {
    const d = fresh();
    writeFileSync(join(d, `.config.json.lock.${DEAD}.0123abcd`), `${DEAD}\n`);
    writeFileSync(join(d, `.config.json.lock.${process.pid}.89abcdef`), 'live');
    const lock = join(d, 'config.json.lock');
    expect(tryPidLock(lock)).toBeNull();
    releasePidLock(lock);
    expect(readdirSync(d).sort()).toEqual([`.config.json.lock.${process.pid}.89abcdef`]);
  });

  it("a killed run's CSV spool (a directory) goes with its contents; a live one stays", () => {
    const d = fresh();
    mkdirSync(join(d, `assess-csv-${DEAD}-AbC123`));
    writeFileSync(join(d, `assess-csv-${DEAD}-AbC123`, 'input.csv'), 'email,name\nann@example.com,Ann\n');
    mkdirSync(join(d, `assess-csv-${process.pid}-XyZ789`));
    expect(removeLeftovers(d, /^assess-csv-(?<pid>\d+)-/)).toBe(1);
    expect(readdirSync(d)).toEqual([`assess-csv-${process.pid}-XyZ789`]);
  });
});

describe('a sticky shared directory (/tmp)', () => {
  const shared = mkdtempSync(join('/tmp', 'assess-sticky-'));
  chmodSync(shared, 0o1777);
  afterAll(() => rmSync(shared, { recursive: true, force: true }));
  const mine = fresh();

  /**
   * Makes `path` (just created by us) another user's, as one planted by them: root hands it to
   * nobody; anyone else writes as a uid of its own (`who`), the path staying the test's.
   */
  const planted = (path: string): number => {
    if (me !== 0) return me + 1;
    lchownSync(path, 65534, 65534);
    return me;
  };

  it("another user's symlink there is not followed: results, PDFs, journals, inboxes (exit 2)", () => {
    const victim = join(mine, 'authorized_keys');
    writeFileSync(victim, 'ssh-ed25519 AAAA me\n');
    const link = join(shared, 'run.results.ndjson');
    symlinkSync(victim, link);
    const who = planted(link);
    const e = usage(() => writeTarget(link, '--results', who));
    expect(e.message).toBe(
      `--results: ${link} is a symbolic link of another user (uid ${me === 0 ? 65534 : me}) in the shared directory ` +
        `${shared}; not written through`,
    );
    expect(() => openForAppend(link, '--journal', who)).toThrow(/--journal: .* is a symbolic link of another user/);
    expect(readFileSync(victim, 'utf8')).toBe('ssh-ed25519 AAAA me\n');
  });

  it("another user's file there is not appended to or replaced; our own link there, and links elsewhere, are", () => {
    const theirs = join(shared, 'j.ndjson');
    writeFileSync(theirs, '');
    const who = planted(theirs);
    expect(() => openForAppend(theirs, '--journal', who)).toThrow(/--journal: .* is a file of another user/);
    expect(() => writeTarget(theirs, '--results', who)).toThrow(/is a file of another user/);
    // ours: followed, as everywhere (a link stays a link)
    const target = join(mine, 'real.ndjson');
    symlinkSync(target, join(shared, 'own-link.ndjson'));
    expect(followLinks(join(shared, 'own-link.ndjson'), '--results')).toBe(target);
    closeSync(openForAppend(join(shared, 'own-link.ndjson'), '--journal'));
    expect(existsSync(target)).toBe(true);
    // a link in a directory that is not sticky is the user's own arrangement: followed
    symlinkSync(target, join(mine, 'link.ndjson'));
    expect(writeTarget(join(mine, 'link.ndjson'), '--results', me + 1)).toBe(target);
  });
});

// the fresh temp directory of a test run may itself be under /tmp: make sure nothing leaked
afterAll(() => {
  expect(readdirSync(tmpdir()).filter((f) => f.startsWith(`assess-csv-${DEAD}`))).toEqual([]);
});
