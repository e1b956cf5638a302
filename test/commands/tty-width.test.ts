// What a person sees on terminals 60, 80 and 160 columns wide, with colour forced on
// (FORCE_COLOR): tables never wider than the terminal (lowest-ranked columns dropped, long text
// cut with …), the report as a one-screen picture. In-process: stdout claims to be a TTY and
// COLUMNS fixes its width.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/output/width.js';
import { runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
beforeAll(async () => {
  s = await startTestSandbox();
  // something in the outbox and deliveries tables: an e-mailed invitation with a callback
  // address nobody listens on, completed
  const invite = await runInProcess(
    [
      'invite',
      '1001',
      '--email',
      'wanjiru.kamau-otieno@university-of-nairobi.example',
      '--name',
      '王小明 Wanjiru Kamau-Otieno',
      '--send-email',
      '--callback-url',
      'http://127.0.0.1:9/assessment/completed/notify',
      '--json',
      'testInvitationId',
    ],
    { env: s.env },
  );
  const id = String(JSON.parse(invite.stdout).testInvitationId);
  await runInProcess(['sandbox', 'simulate', id, 'complete', '--score', '64'], { env: s.env });
});
afterAll(async () => {
  await s?.close();
});

const ESC = '\u001b[';
const onTerminal = (args: string[], columns: number, env: Record<string, string | undefined> = {}) =>
  runInProcess(args, {
    env: { ...s.env, NO_COLOR: undefined, FORCE_COLOR: '1', COLUMNS: String(columns), ...env },
    tty: true,
  });
const widest = (out: string) => Math.max(...out.split('\n').map(displayWidth));
const headerOf = (out: string) => out.split('\n')[1].replace(/\u001b\[[0-9;]*m/g, '');

const TABLES: string[][] = [
  ['links', 'list', '1001'],
  ['tests', 'list'],
  ['tests', 'get', '1001'], // key/value lines, then Sections and Skills tables
  ['attempts', 'list', '--state', 'completed', '--from', '30d', '--to', 'now'],
  ['sandbox', 'requests'],
  ['sandbox', 'deliveries'],
  ['sandbox', 'outbox'],
  ['timezones'],
];

describe.each([60, 80, 160])('a %i-column terminal', (columns) => {
  it.each(TABLES.map((a) => [a.join(' '), a]))(
    '%s: no line is wider than the terminal, colour on',
    async (_name, args) => {
      const r = await onTerminal(args as string[], columns);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('┌');
      expect(widest(r.stdout)).toBeLessThanOrEqual(columns);
      expect(r.stdout).toContain(ESC);
    },
  );

  it('report: the picture fits, with the total, bars and minutes', async () => {
    const r = await onTerminal(['report', '900001'], columns);
    expect(r.code, r.stderr).toBe(0);
    expect(widest(r.stdout)).toBeLessThanOrEqual(columns);
    const plain = r.stdout.replace(/\u001b\[[0-9;]*m/g, '');
    expect(plain).toMatch(/^Alice Archer {2}<alice@example\.com>$/m);
    expect(plain).toMatch(/^Status {4}Complete\nAttempted \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/m); // TZ=UTC, named
    expect(plain).toMatch(/^Score {5}107 \/ 130 \(82 %\) {2}█+[▏▎▍▌▋▊▉]?░+$/m);
    expect(plain).toMatch(/^Category {2}Good$/m);
    expect(plain).toMatch(/^Time {6}44 min used of 75 min allowed$/m);
    expect(plain).toMatch(/^ {2}Core Java +█+[▏▎▍▌▋▊▉]?░+ {2}58 \/ 70 {3}83 % {2}15 of 30 min$/m);
    expect(plain).toMatch(/^Skills$/m);
    expect(plain).toMatch(/^ {2}Coding › Debugging +█+.* {2}16 \/ 20 {3}80 %$/m);
    expect(r.stdout).toContain(`${ESC}32mComplete`); // status in green
    expect(r.stdout).toContain(`${ESC}32mGood`); // category in green
  });
});

describe('key/value views fit the terminal', () => {
  it.each([60, 80, 100])('settings get at %i columns: no line wider, no key or value cut mid-word', async (cols) => {
    const r = await onTerminal(['settings', 'get', '1001'], cols, { NO_COLOR: '1' });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.filter((l) => displayWidth(l) > cols)).toEqual([]);
    // every key reads back whole (a long one broken after a dot, its value under the value column)
    const text = r.stdout.replace(/\.\n +/g, '.');
    for (const key of [
      'testSettings.testName',
      'windowViolationSettings.displayViolationSettings.terminateTestAfterViolationCount',
    ])
      expect(text).toContain(key);
    expect(text).toMatch(/^testSettings\.testName +Java Backend Developer$/m);
  });
});

describe('what is kept on a narrow terminal', () => {
  it('160 columns: every column of links list, nothing cut', async () => {
    const r = await onTerminal(['links', 'list', '1001'], 160);
    expect(headerOf(r.stdout)).toMatch(
      /^│ Link ID │ Name +│ Status +│ Type +│ Proctoring │ Schedule +│ Days │ Start +│ End +│ Time zone +│$/,
    );
    expect(r.stdout).toContain('Campus drive (timebound)');
    expect(r.stdout).not.toContain('…');
    expect(r.stderr).not.toContain('hidden');
  });

  it('110 columns: how (Type, Proctoring, Days, Time zone) goes before when (Start and End, together)', async () => {
    const r = await onTerminal(['links', 'list', '1001'], 110);
    expect(headerOf(r.stdout)).toMatch(/^│ Link ID │ Name +│ Status +│ Schedule +│ Start +│ End +│$/);
    expect(r.stdout).toMatch(/│ Campus drive \(timeb\S*/); // 20 columns at least: readable
    expect(r.stderr).toContain(
      '(Type, Proctoring, Days, Time zone hidden to fit 110 columns; --json shows every field)',
    );
  });

  it('80 columns: Start and End dropped together, names whole', async () => {
    const r = await onTerminal(['links', 'list', '1001'], 80);
    expect(headerOf(r.stdout)).toMatch(/^│ Link ID │ Name +│ Status +│ Schedule +│$/);
    expect(r.stdout).toContain('Campus drive (timebound)');
    // the notice is broken at a space to fit the terminal too
    expect(r.stderr.replace(/\n(?=\S)/g, ' ')).toContain(
      '(Type, Proctoring, Days, Start, End, Time zone hidden to fit 80 columns; --json shows every field)',
    );
    expect(r.stderr.split('\n').every((l) => l.length <= 80)).toBe(true);
  });

  it('60 columns: fewer columns again, the names still whole', async () => {
    const r = await onTerminal(['links', 'list', '1001'], 60);
    expect(headerOf(r.stdout)).toMatch(/^│ Link ID │ Name +│ Status +│$/);
    expect(r.stdout).toContain('Campus drive (timebound)');
    expect(r.stdout).not.toContain('…');
  });

  it('60 and 80 columns: attempts keep names and e-mails readable, Type goes first', async () => {
    for (const cols of [60, 80]) {
      const r = await onTerminal(['attempts', 'list', '--from', '30d'], cols);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('alice@example.com');
      expect(r.stdout).not.toMatch(/alice@ex\S*…/);
      if (cols === 60) expect(headerOf(r.stdout)).not.toMatch(/│ Type /);
    }
  });

  it('NO_COLOR: the same table without a colour code', async () => {
    const r = await onTerminal(['links', 'list', '1001'], 80, { NO_COLOR: '1' });
    expect(r.stdout).toContain('│ Link ID │');
    expect(r.stdout).not.toContain('\u001b');
  });

  it('FORCE_COLOR=0: the same table without a colour code', async () => {
    const r = await onTerminal(['links', 'list', '1001'], 80, { FORCE_COLOR: '0' });
    expect(r.stdout).toContain('│ Link ID │');
    expect(r.stdout).not.toContain('\u001b');
  });

  it('piped (not a TTY): the same TSV whatever COLUMNS says, no … and no notice', async () => {
    const narrow = await runInProcess(['links', 'list', '1001'], { env: { ...s.env, COLUMNS: '40' } });
    const wide = await runInProcess(['links', 'list', '1001'], { env: { ...s.env, COLUMNS: '400' } });
    expect(narrow.stdout).toBe(wide.stdout);
    expect(narrow.stdout).toMatch(/^5002\tCampus drive \(timebound\)\tactive\t/m);
    expect(narrow.stdout.split('\n')[0].split('\t')).toHaveLength(10);
    expect(narrow.stdout).not.toContain('…');
    expect(narrow.stderr).not.toContain('hidden');
  });
});

describe('report picture variants', () => {
  it('--ascii: # and . bars, no block characters; colour stays', async () => {
    const r = await onTerminal(['report', '900001', '--ascii'], 80);
    expect(r.stdout).toMatch(/107 \/ 130 \(82 %\) {2}\S*#+\.+/);
    expect(r.stdout).not.toMatch(/[█░▏▎▍▌▋▊▉·›]/);
    expect(r.stdout).toContain('Core Java > OOP');
    expect(r.stdout).toContain(ESC);
  });

  it('TERM=dumb: ASCII and no colour', async () => {
    const r = await onTerminal(['report', '900001'], 80, { TERM: 'dumb' });
    expect(r.stdout).toMatch(/^Score {5}107 \/ 130 \(82 %\) {2}#+\.+$/m);
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).not.toContain('█');
  });

  it('NO_COLOR: block bars without colour', async () => {
    const r = await onTerminal(['report', '900001'], 80, { NO_COLOR: '1' });
    expect(r.stdout).toContain('█');
    expect(r.stdout).not.toContain('\u001b');
  });

  it('Pending: "No result yet (Pending)" instead of empty rows', async () => {
    const r = await onTerminal(['report', '900004'], 80, { NO_COLOR: '1' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Score {5}No result yet \(Pending\)$/m);
    expect(r.stdout).not.toMatch(/Sections|Skills|Category|░/);
  });

  it('without --type the picture asks for sections and skills; --json keeps the summary default', async () => {
    await onTerminal(['report', '900001'], 80);
    expect((await s.requests()).at(-1)!.path).toBe('/v3/reports/900001?reportType=3');
    const json = await onTerminal(['report', '900001', '--json'], 80);
    expect((await s.requests()).at(-1)!.path).toBe('/v3/reports/900001?reportType=1');
    expect(JSON.parse(json.stdout).sections[0].Skills).toBeUndefined();
  });
});
