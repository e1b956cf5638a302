// report export never replaces a file it did not write. The journal lists the files its runs
// wrote; a summary it did not write is refused (exit 2, before anything is sent), a user's file
// with a report's name is kept and the PDF goes beside it.
import { readFileSync, mkdirSync, writeFileSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { journalFiles, storeOf } from '../helpers/store.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { reportPdfName } from '../../src/commands/report/shared/filename.js';

let s: TestSandbox;
const work = tempDir('assess-export-own-');
const cfg = join(work.dir, 'config');
let id = 0;
beforeAll(async () => {
  s = await startTestSandbox();
  const inv = await s.service<{ testInvitationId: number }>('/v3/tests/1001/invite', {
    email: 'own@export.example',
    name: 'Owen Own',
  });
  await s.control('POST', `/invitations/${inv.testInvitationId}/simulate`, { to: 'complete', score: 61 });
  id = inv.testInvitationId;
});
afterAll(async () => {
  await s?.close();
  work.cleanup();
});
const args = (out: string, extra: string[] = []) => [
  'report',
  'export',
  '--from',
  '1d',
  '--to',
  '+1h',
  '--out',
  out,
  ...extra,
];

describe('export and files already in --out', () => {
  it('a summary.csv the CLI did not write is refused (exit 2, untouched, nothing sent); its own is replaced', async () => {
    const out = join(work.dir, 'mine');
    mkdirSync(out);
    writeFileSync(join(out, 'summary.csv'), 'my own spreadsheet\n');
    const v3 = async () => (await s.requests()).filter((q) => q.path.startsWith('/v3/')).length;
    const before = await v3();
    const r = await runAssess(args(out), { env: s.env, configDir: cfg });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/summary\.csv exists and was not written by assess/);
    expect(readFileSync(join(out, 'summary.csv'), 'utf8')).toBe('my own spreadsheet\n');
    expect(await v3()).toBe(before);

    const fresh = join(work.dir, 'ours');
    expect((await runAssess(args(fresh), { env: s.env, configDir: cfg })).code).toBe(0);
    expect(journalFiles(storeOf(cfg), fresh)).toEqual(['sections.csv', 'skills.csv', 'summary.csv']);
    const again = await runAssess(args(fresh), { env: s.env, configDir: cfg });
    expect(again.code).toBe(0);
  });

  it("a user's file with a report's name is kept; the PDF is saved beside it and the journal says so", async () => {
    const out = join(work.dir, 'pdfs');
    mkdirSync(out);
    const name = reportPdfName('Owen Own', String(id));
    writeFileSync(join(out, name), 'not a report, mine');
    const r = await runAssess(args(out, ['--pdf']), { env: s.env, configDir: cfg });
    expect(r.code).toBe(0);
    expect(readFileSync(join(out, name), 'utf8')).toBe('not a report, mine');
    const beside = name.replace(/\.pdf$/, ' (2).pdf');
    expect(readFileSync(join(out, beside)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(r.stderr).toContain(
      `exists and was not written by assess; saved the report of ${id} beside it as ${beside}`,
    );
    const wrote = journalFiles(storeOf(cfg), out);
    expect(wrote).toContain(beside);
    expect(wrote).not.toContain(name);
    // a re-run finds its own file and writes nothing new
    const again = await runAssess(args(out, ['--pdf']), { env: s.env, configDir: cfg });
    expect(again.code).toBe(0);
    expect(
      readdirSync(out)
        .filter((f) => f.endsWith('.pdf'))
        .sort(),
    ).toEqual([name, beside].sort());
  });

  it("a dangling symlink with a report's name is the user's too: the link is kept, the PDF goes beside it", async () => {
    const out = join(work.dir, 'dangling');
    mkdirSync(out);
    const name = reportPdfName('Owen Own', String(id));
    symlinkSync('elsewhere/gone.pdf', join(out, name));
    const r = await runAssess(args(out, ['--pdf']), { env: s.env, configDir: cfg });
    expect(r.code, r.stderr).toBe(0);
    expect(readlinkSync(join(out, name))).toBe('elsewhere/gone.pdf');
    expect(
      readFileSync(join(out, name.replace(/\.pdf$/, ' (2).pdf')))
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
  });
});
