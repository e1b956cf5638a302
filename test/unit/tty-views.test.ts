// What a person sees on a terminal (stdout is a TTY): tables with full ids, times in the zone of TZ named beside them,
// the
// test's sections as nested tables, and the settings diff table of --dry-run. Runs in-process
// (runCli + in-memory streams) against a sandbox on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { tempDir } from '../helpers/cli.js';
import { memoryProcess } from '../helpers/memory-io.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
const dir = tempDir();
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => {
  dir.cleanup();
  await s?.close();
});

async function tty(argv: string[], tz = 'UTC', columns = 160) {
  // wide enough for every column of these tables (narrower ones: tty-width.test.ts)
  const p = memoryProcess(
    { ...s.env, ASSESS_CONFIG_DIR: dir.dir, CI: 'true', NO_COLOR: '1', COLUMNS: String(columns), TZ: tz },
    { tty: true },
  );
  const code = await runCli(argv, p);
  return { code, out: p.out(), err: p.err() };
}

describe('on a terminal', () => {
  it('tests get: header lines, then Sections and Skills as tables', async () => {
    const r = await tty(['tests', 'get', '1001']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Test ID +1001$/m);
    expect(r.out).toMatch(/^Sections\n┌/m);
    expect(r.out).toMatch(/│ Section ID │ Section +│ Type +│ Questions │ Minutes │ Points │/);
    expect(r.out).toMatch(/^Skills\n┌/m);
    expect(r.out).toMatch(/│ Coding +│ 122 +│ Debugging +│/);
  });

  it("links list: whole ids, the window in this machine's zone named beside each time, the link's zone by name", async () => {
    const r = await tty(['links', 'list', '1001'], 'Asia/Kolkata', 200);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /│ Link ID │ Name +│ Status +│ Type +│ Proctoring │ Schedule +│ Days │ Start +│ End +│ Time zone +│/,
    );
    const link = JSON.parse((await tty(['links', 'get', '1001', '5002', '--json'])).out);
    const start: string = link.invitationSchedule.scheduleDetails.startDateTime;
    expect(r.out).toContain(`│ 5002    │ Campus drive (timebound) │`);
    // UTC 18:40 is 00:10 the next day in Kolkata, which has no English abbreviation: the offset
    const local = new Date(Date.parse(start) + 5.5 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
    expect(r.out).toContain(`${local} UTC+5:30`);
    expect(r.out).not.toContain(start);
    expect(r.out).toMatch(/│ UTC \(id 1\) +│/);
    expect(r.out).not.toMatch(/\bTZ\b/);
  });

  it('links get: the same, as key/value lines', async () => {
    const r = await tty(['links', 'get', '1001', '5002'], 'Europe/Paris');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Time zone +UTC \(id 1\)$/m);
    expect(r.out).toMatch(/^Start +\d{4}-\d{2}-\d{2} \d{2}:\d{2} CES?T$/m);
  });

  it('settings set --dry-run: the diff as a Setting / Current / New table, the warning on stderr', async () => {
    const r = await tty(['settings', 'set', '1003', '--set', 'windowViolationSettings.copyPaste=1', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/│ Setting +│ Current │ New │/);
    expect(r.out).toMatch(/│ windowViolationSettings\.displayViolationSettings\.displayViolationPopUp │ 1 +│ 0 +│/);
    expect(r.err).toMatch(/warning: allowing copy-paste disables the window violation popup/);
  });
});
