// The table `invite --from-csv` prints on a terminal after the run: the headings other tables use,
// and on a narrow terminal the invitation id and the URL kept (the line number goes first).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => s?.close());

function cohort(cols: number): string {
  const work = tempDir('assess-urls-');
  onTestFinished(() => work.cleanup());
  const file = join(work.dir, 'cohort.csv');
  writeFileSync(
    file,
    `email,name\nann.${cols}@example.com,Ann Lee\nwanjiru.kamau-otieno.${cols}@university-of-nairobi.example,Wanjiru Kamau\n`,
  );
  return file;
}

const onTerminal = (cols: number, file: string) =>
  runInProcess(['invite', '1001', '--from-csv', file], { env: { ...s.env, COLUMNS: String(cols) }, tty: true });

describe('invite --from-csv: the URL table on a terminal', () => {
  it('100 columns: Invitation and URL kept, headings in words, the line number hidden first', async () => {
    const r = await onTerminal(100, cohort(100));
    expect(r.code, r.stderr).toBe(0);
    const header = r.stdout.split('\n')[1];
    expect(header).toMatch(/│ Invitation +│/);
    expect(header).toMatch(/│ URL +│/);
    expect(header).toMatch(/│ E-mail +│/);
    expect(header).not.toMatch(/testInvitationId|testUrl|│ email /);
    expect(r.stdout).toMatch(/│ 9\d{5} +│/);
    expect(r.stdout).toMatch(/http:\/\/127\.0\.0\.1:\d+\/take\/\S+ +│/);
    expect(r.stderr).toMatch(/\(Line(, \w+)* hidden to fit 100 columns/);
    expect(r.stderr).not.toMatch(/Invitation[^\n]*hidden/);
    expect(r.stdout.split('\n').every((l) => l.length <= 100)).toBe(true);
  });

  it('60 columns: each candidate on two lines, with the invitation id and the URL whole', async () => {
    const r = await onTerminal(60, cohort(60));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^ann\.60@example\.com \(Ann Lee\) {2}line 2, invitation 9\d{5}, invited\n {2}http:\/\/127\.0\.0\.1:\d+\/take\/\S+$/m,
    );
  });
});
