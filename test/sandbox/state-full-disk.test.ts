// --state on a full disk (a small tmpfs; the tests run as root here): a change whose log line
// cannot be written is answered 5xx, never 2xx; the log keeps no half line; once there is room
// the changes are written again (a snapshot, and the log after it), and the files load whole.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStateFile } from '../../src/sandbox/persistence.js';
import { harness } from './helpers.js';

/** A tmpfs of `kb` KiB, or why none could be mounted. */
function smallDisk(kb: number): { dir: string; cleanup(): void } | { why: string } {
  const dir = mkdtempSync(join(tmpdir(), 'assess-state-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kb}k`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return { why: (err as Error).message.split('\n')[0]! };
  }
  return {
    dir,
    cleanup: () => {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Fills the disk: a file as large as what is left (tmpfs counts whole pages). */
function fill(dir: string): string {
  const filler = join(dir, 'filler');
  const chunk = Buffer.alloc(4096, 120);
  try {
    for (;;) writeFileSync(filler, chunk, { flag: 'a' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  }
  return filler;
}

describe('--state on a full disk', () => {
  it('a change that cannot be written is answered 5xx; with room again, everything is written and loads', async () => {
    const disk = smallDisk(1024);
    if ('why' in disk) return void console.warn(`skipped: no tmpfs could be mounted (${disk.why})`);
    const file = join(disk.dir, 'state.json');
    const h = await harness({ stateFile: file });
    let filler: string | undefined;
    try {
      const before = await h.inviteA(1001, 'before@full.test');
      filler = fill(disk.dir);
      // the log's last page may still have room for a line or two: invite until one does not fit
      const answered: string[] = [];
      let refused: Awaited<ReturnType<typeof h.api>> | undefined;
      for (let i = 0; i < 50 && !refused; i++) {
        const r = await h.api('POST', '/v3/tests/1001/invite', { email: `fill${i}@full.test`, name: 'Filling' });
        if (r.status === 200) answered.push(`fill${i}@full.test`);
        else refused = r;
      }
      expect(refused?.status).toBe(500);
      expect(JSON.stringify(refused!.body)).toMatch(/ENOSPC/);
      const log = await readFile(`${file}.log`, 'utf8');
      expect(log.endsWith('\n')).toBe(true); // the half-written line was cut off again
      expect(log).not.toContain(`fill${answered.length}@full.test`);

      rmSync(filler);
      // answered once durable: in the snapshot, or in the log when a background snapshot that began
      // before it (the disk had room again meanwhile) was written first
      const after = await h.inviteA(1001, 'after@full.test');
      const copy = join(tmpdir(), `assess-state-full-copy-${process.pid}.json`);
      copyFileSync(file, copy);
      if (existsSync(`${file}.log`)) copyFileSync(`${file}.log`, `${copy}.log`);
      const doc = (await loadStateFile(copy))!.doc;
      rmSync(copy, { force: true });
      rmSync(`${copy}.log`, { force: true });
      const emails = doc.invitations.map((i) => i.email);
      expect(emails).toEqual(
        expect.arrayContaining([
          'before@full.test',
          ...answered,
          `fill${answered.length}@full.test`,
          'after@full.test',
        ]),
      );
      expect(doc.invitations.map((i) => i.testInvitationId)).toEqual(expect.arrayContaining([before, after]));
    } finally {
      if (filler) rmSync(filler, { force: true });
      await h.close();
      disk.cleanup();
    }
  });
});
