// Writes on a real full disk (a small tmpfs): every byte written or the run
// fails naming the file (exit 2); no short write is taken for success; a full disk under a PDF
// download is the disk (exit 2), not the network (exit 6), and is not retried.
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, NODE, ROOT, runAssess, tempDir } from '../helpers/cli.js';
import { csvOf, doneItems } from '../helpers/bulk.js';
import { query } from '../helpers/store.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { mountTmpfs, unmountable, type Tmpfs } from '../helpers/tmpfs.js';

const skip = unmountable();
if (skip) console.warn(`full-disk.test.ts skipped: ${skip}`);

describe.skipIf(skip !== null)('a full disk: exit 2 naming the file, never a short file taken for done', () => {
  let s: TestSandbox;
  const work = tempDir('assess-full-');
  const mounts: Tmpfs[] = [];
  const disk = (size: string) => {
    const t = mountTmpfs(size);
    mounts.push(t);
    return t;
  };
  beforeAll(async () => {
    s = await startTestSandbox();
  });
  afterAll(async () => {
    for (const m of mounts) m.close();
    await s?.close();
    work.cleanup();
  });
  const sent = async (tag: string) =>
    (await s.requests()).filter(
      (r) => r.method === 'POST' && r.status < 300 && JSON.stringify(r.body ?? '').includes(tag),
    ).length;
  const csv = (tag: string, rows: number) => {
    const path = join(work.dir, `${tag}.csv`);
    writeFileSync(
      path,
      csvOf(
        Array.from({ length: rows }, (_, i) => [`c${i}@${tag}.full.example`, `Candidate Number ${i} of a long cohort`]),
      ),
    );
    return path;
  };

  it('invite --from-csv: results that do not fit are exit 2 naming the file, never a short file under its name', async () => {
    await s.control('DELETE', '/requests');
    const t = disk('64k');
    const results = join(t.dir, 'r.ndjson');
    const r = await runAssess(
      [
        'invite',
        '1001',
        '--from-csv',
        csv('res', 400),
        '--journal',
        join(work.dir, 'res.journal.db'),
        '--results',
        results,
      ],
      {
        env: s.env,
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot write the results ${results}: no space left on the device (ENOSPC)`);
    expect(r.stderr).not.toMatch(/looks like a bug/);
    // no results file with a hole in it: none at all (the journal has every outcome)
    expect(existsSync(results)).toBe(false);
    expect(readdirSync(t.dir)).toEqual([]);
    expect(doneItems(join(work.dir, 'res.journal.db')).length).toBe(await sent('res'));
  });

  it('invite --from-csv: a journal that fills up stops the run (exit 2), every sent row in it, the file sound', async () => {
    await s.control('DELETE', '/requests');
    const t = disk('64k');
    const journal = join(t.dir, 'j.db');
    const r = await runAssess(
      [
        'invite',
        '1001',
        '--from-csv',
        csv('jrn', 400),
        '--journal',
        journal,
        '--results',
        join(work.dir, 'jrn.results.ndjson'),
        '--concurrency',
        '2',
      ],
      {
        env: s.env,
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot use the journal ${journal}: no space left on the device`);
    expect(r.stderr).not.toMatch(/looks like a bug/);
    // read where there is room (a full tmpfs cannot take the reader's own files)
    const copy = join(work.dir, 'j-copy.db');
    for (const ext of ['', '-wal'])
      if (existsSync(`${journal}${ext}`)) copyFileSync(`${journal}${ext}`, `${copy}${ext}`);
    expect(query(copy, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    const done = doneItems(copy);
    expect(done.length).toBeLessThan(400);
    // the run stopped: what was sent is what the journal holds, plus at most the rows in flight
    // (the pool runs at most twice --concurrency workers: one answered, writing; one sending)
    const n = await sent('jrn');
    expect(n).toBeGreaterThanOrEqual(done.length);
    expect(n).toBeLessThanOrEqual(done.length + 4);
  });

  it('--journal on a FIFO: exit 2 before anything is sent (it would hold the run once its buffer filled)', async () => {
    await s.control('DELETE', '/requests');
    const fifo = join(work.dir, 'journal.fifo');
    spawnSync('mkfifo', [fifo]);
    const r = await runAssess(
      [
        'invite',
        '1001',
        '--from-csv',
        csv('fifo', 600),
        '--journal',
        fifo,
        '--results',
        join(work.dir, 'fifo.results.ndjson'),
      ],
      {
        env: s.env,
        timeoutMs: 20_000,
      },
    );
    expect(r.signal).toBeNull();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--journal: ${fifo} is not a regular file`);
    expect(await sent('fifo')).toBe(0);
  });

  it('report export: a summary that does not fit is exit 2 naming it, no summary.csv', async () => {
    for (let i = 0; i < 300; i++) {
      const inv = await s.service<{ testInvitationId: number }>('/v3/tests/1001/invite', {
        email: `e${i}@summary.full.example`,
        name: `Exported Candidate ${i}`,
      });
      await s.control('POST', `/invitations/${inv.testInvitationId}/simulate`, {
        to: 'complete',
        score: 50 + (i % 50),
      });
    }
    const t = disk('16k');
    const r = await runAssess(
      [
        'report',
        'export',
        '--from',
        '1d',
        '--to',
        '+1h',
        '--out',
        t.dir,
        '--journal',
        join(work.dir, 'sum.journal.db'),
      ],
      {
        env: s.env,
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(`cannot write the (summary|results) ${t.dir}/\\S+: no space left on the device \\(ENOSPC\\)`),
    );
    expect(existsSync(join(t.dir, 'summary.csv'))).toBe(false);
  });

  it('report --pdf onto a full disk: exit 2 naming the file, not a network failure', async () => {
    const t = disk('16k');
    t.fill();
    const target = join(t.dir, 'r.pdf');
    const r = await runAssess(['report', '900001', '--pdf', '-o', target], { env: s.env });
    expect(r.stderr).toContain(`cannot write the PDF to ${target}: no space left on the device (ENOSPC)`);
    expect(r.stderr).not.toMatch(/base URL|network/);
    expect(r.code).toBe(2);
    expect(existsSync(target)).toBe(false);
  });

  /** Runs the binary with stdout on the file `path`, opened for appending (`>> path`). */
  const appendingTo = (args: string[], path: string) => {
    const cfg = tempDir();
    const fd = openSync(path, 'a');
    const child = spawn(NODE, [BIN, ...args], {
      env: { ...baseEnv(cfg.dir), ...s.env } as NodeJS.ProcessEnv,
      cwd: ROOT,
      stdio: ['ignore', fd, 'pipe'],
    });
    closeSync(fd);
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
    return new Promise<{ code: number | null; stderr: string }>((resolve) =>
      child.on('close', (code) => {
        cfg.cleanup();
        resolve({ code, stderr });
      }),
    );
  };

  it('`> file` on stdout with room for all but the last bytes: exit 2 naming stdout, never exit 0 with a cut-off file', async () => {
    for (const [i, args] of [
      ['report', '900001', '--pdf', '-o', '-'],
      ['report', '900001', '--json'],
    ].entries()) {
      const probe = join(work.dir, `stdout-${i}.probe`);
      expect((await appendingTo(args, probe)).code).toBe(0);
      const room = statSync(probe).size - 10;
      // a disk that holds exactly `room` bytes of it: a tmpfs of whole pages, the first `pad` of
      // them taken by what the file already holds (`>>`), so the disk takes part of the last write
      const pad = (4096 - (room % 4096)) % 4096;
      const t = disk(`${(pad + room) / 1024}k`);
      const target = join(t.dir, 'out');
      writeFileSync(target, Buffer.alloc(pad, 0x20));
      const r = await appendingTo(args, target);
      expect(statSync(target).size).toBe(pad + room); // the disk took what fitted
      expect(r.stderr).toMatch(/cannot write (the PDF )?to standard output: no space left on the device \(ENOSPC\)/);
      expect(r.code).toBe(2);
    }
  });

  it('report export --pdf onto a full disk: exit 2, no PDF asked for twice (no retry as a network error)', async () => {
    const t = disk('16k');
    const out = join(t.dir, 'out');
    mkdirSync(out);
    t.fill();
    await s.control('DELETE', '/requests');
    const r = await runAssess(
      [
        'report',
        'export',
        '--from',
        '30d',
        '--to',
        '+1h',
        '--out',
        out,
        '--pdf',
        '--journal',
        join(work.dir, 'pdf.journal.db'),
        '--concurrency',
        '1',
      ],
      {
        env: s.env,
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot write the PDF \S+\.pdf: no space left on the device \(ENOSPC\)/);
    expect(r.stderr).not.toMatch(/broke off|base URL/);
    const pdfs = (await s.requests()).filter((q) => q.path.endsWith('/pdf'));
    expect(pdfs.length).toBeGreaterThan(0);
    expect(new Set(pdfs.map((q) => q.path)).size).toBe(pdfs.length); // none asked for twice
  });
});
