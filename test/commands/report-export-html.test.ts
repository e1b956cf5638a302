// `report export --html`: index.html beside the summary, private, atomic, replaced only when
// this export's journal says it wrote it.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
const work = tempDir('assess-export-html-');
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => {
  await s?.close();
  work.cleanup();
});
const run = (args: string[]) => runInProcess(args, { env: s.env });

describe('assess report export --html', () => {
  it('writes index.html (0600) beside the summary, one row per attempt; a re-run replaces it', async () => {
    const out = join(work.dir, 'a');
    const r = await run(['report', 'export', '--from', '30d', '--out', out, '--html', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ html: join(out, 'index.html') });
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html.match(/<tr>/g)).toHaveLength(1 + 3); // header + the three seeded completed attempts
    expect(html).toContain('Alice Archer');
    expect(html).not.toContain('<a href'); // no --pdf: no links
    expect(statSync(join(out, 'index.html')).mode & 0o777).toBe(0o600);
    expect(readdirSync(out).filter((n) => n.endsWith('.part'))).toEqual([]);
    const runLine = readFileSync(join(out, 'export.journal.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .at(-1);
    expect(runLine.run.wrote).toEqual(['summary.csv', 'sections.csv', 'skills.csv', 'index.html']);

    const again = await run(['report', 'export', '--from', '30d', '--out', out, '--html']);
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).not.toBe(html); // a new "made at" time
  });

  it('an index.html of the user is never replaced: exit 2 before anything is sent', async () => {
    const out = join(work.dir, 'b');
    mkdirSync(out);
    writeFileSync(join(out, 'index.html'), 'mine');
    await s.control('DELETE', '/requests');
    const r = await run(['report', 'export', '--from', '30d', '--out', out, '--html']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--html: .*index\.html exists and was not written by assess/);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe('mine');
    expect(await s.requests()).toEqual([]);
    // without --html the same directory is fine: the file is not ours to touch
    expect((await run(['report', 'export', '--from', '30d', '--out', out])).code).toBe(0);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe('mine');
  });

  it('--html in a directory an export without --html wrote: index.html is new, so it is written', async () => {
    const out = join(work.dir, 'c');
    expect((await run(['report', 'export', '--from', '30d', '--out', out])).code).toBe(0);
    expect(existsSync(join(out, 'index.html'))).toBe(false);
    const r = await run(['report', 'export', '--from', '30d', '--out', out, '--html']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('Bob Baker'); // rows reused from the journal
  });
});
