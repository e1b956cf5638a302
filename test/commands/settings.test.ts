// `assess settings get|set` against the sandbox: output formats, the read → change → validate →
// diff → send round trip, the copy-paste/popup constraint, --dry-run, and bad input (unknown
// keys, wrong values, bad files, no --yes without a terminal) stopped before any request.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as runAssess } from '../helpers/in-process.js';
import { json, startServer } from '../helpers/http-server.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
const files = tempDir('assess-settings-');
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => {
  files.cleanup();
  await s?.close();
});

const run = (args: string[]) => runAssess(args, { env: s.env });
const serviceRequests = async () => (await s.requests()).filter((r) => r.path.startsWith('/v3/'));
async function runAndSee(args: string[]) {
  const before = (await serviceRequests()).length;
  const r = await run(args);
  return { ...r, sent: (await serviceRequests()).slice(before) };
}
const getJson = async (testId: string) => JSON.parse((await run(['settings', 'get', testId, '--json'])).stdout);
function file(name: string, text: string): string {
  const p = join(files.dir, name);
  writeFileSync(p, text);
  return p;
}

describe('assess settings get', () => {
  it('piped: one "section.field<TAB>value" line per setting', async () => {
    const r = await run(['settings', 'get', '1001']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(17);
    expect(lines[0]).toBe('testSettings.testName\tJava Backend Developer');
    expect(lines).toContain('windowViolationSettings.displayViolationSettings.terminateTestAfterViolationCount\t3');
  });

  it('--json the service object; --json section; --ndjson one line; --csv one row with dotted headers', async () => {
    const obj = await getJson('1001');
    expect(obj.testSettings).toMatchObject({ testName: 'Java Backend Developer', typeOfTest: 1 });
    expect(obj.windowViolationSettings.displayViolationSettings).toBeTypeOf('object');

    const picked = await run(['settings', 'get', '1001', '--json', 'questionSettings']);
    expect(Object.keys(JSON.parse(picked.stdout))).toEqual(['questionSettings']);

    const nd = await run(['settings', 'get', '1001', '--ndjson']);
    expect(nd.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(nd.stdout)).toEqual(obj);

    const csv = await run(['settings', 'get', '1001', '--csv']);
    const [head, row] = csv.stdout.split('\r\n');
    expect(head!.split(',')[0]).toBe('testSettings.testName');
    expect(head!.split(',')).toHaveLength(17);
    expect(row!.startsWith('Java Backend Developer,')).toBe(true);
  });

  it("another account's test exits 4 (an id this key does not know)", async () => {
    const r = await run(['settings', 'get', '2001']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
  });
});

describe('assess settings set', () => {
  it('round trip: get → set (whole object sent, diff on stderr) → get shows the change', async () => {
    const before = await getJson('1002');
    const r = await runAndSee([
      'settings',
      'set',
      '1002',
      '--set',
      'questionSettings.randomAnswers=1',
      '--set',
      'testSettings.testAliasName=react-2026',
      '--yes',
    ]);
    expect(r.code).toBe(0);
    expect(r.sent.map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual([
      'GET /v3/tests/1002/settings 200',
      'POST /v3/tests/1002/settings 201',
    ]);
    const expected = structuredClone(before);
    expected.questionSettings.randomAnswers = 1;
    expected.testSettings.testAliasName = 'react-2026';
    expect(r.sent[1]!.body).toEqual(expected);
    expect(r.stderr).toContain('questionSettings.randomAnswers: 0 → 1');
    expect(r.stderr).toContain(
      `testSettings.testAliasName: ${JSON.stringify(before.testSettings.testAliasName)} → "react-2026"`,
    );
    expect(r.stdout).toContain('questionSettings.randomAnswers\t1\n');
    expect(await getJson('1002')).toEqual(expected);
  });

  it('allowing copy-paste warns and turns the violation popup off', async () => {
    expect((await getJson('1003')).windowViolationSettings).toMatchObject({
      copyPaste: 0,
      displayViolationSettings: { displayViolationPopUp: 1 },
    });
    const r = await runAndSee([
      'settings',
      'set',
      '1003',
      '--set',
      'windowViolationSettings.copyPaste=1',
      '--yes',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: allowing copy-paste disables the window violation popup/);
    expect(r.stderr).toContain('windowViolationSettings.displayViolationSettings.displayViolationPopUp: 1 → 0');
    expect((r.sent[1]!.body as { windowViolationSettings: unknown }).windowViolationSettings).toMatchObject({
      copyPaste: 1,
      displayViolationSettings: { displayViolationPopUp: 0 },
    });
    expect(JSON.parse(r.stdout).windowViolationSettings.displayViolationSettings.displayViolationPopUp).toBe(0);
  });

  it('--dry-run prints the diff on stdout (TSV, --json) and sends nothing but the read', async () => {
    const before = await getJson('1001');
    const tsv = await runAndSee([
      'settings',
      'set',
      '1001',
      '--set',
      'questionSettings.randomQuestions=1',
      '--dry-run',
    ]);
    expect(tsv.code).toBe(0);
    expect(tsv.stdout).toBe('questionSettings.randomQuestions\t0\t1\n');
    expect(tsv.stderr).toMatch(/Dry run: nothing was sent/);
    expect(tsv.sent.map((q) => q.method)).toEqual(['GET']);

    const j = await runAndSee([
      'settings',
      'set',
      '1001',
      '--set',
      'emailSettings.sendTestReportEmailToCandidate=yes',
      '--dry-run',
      '--json',
    ]);
    expect(JSON.parse(j.stdout)).toEqual([{ key: 'emailSettings.sendTestReportEmailToCandidate', old: 0, new: 1 }]);
    expect(j.sent.map((q) => q.method)).toEqual(['GET']);
    expect(await getJson('1001')).toEqual(before);
  });

  it('--dry-run with no effective change: --json prints [] and exits 0', async () => {
    const r = await run([
      'settings',
      'set',
      '1001',
      '--set',
      'questionSettings.showQuestionScore=1',
      '--dry-run',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('[]\n');
  });

  it('--file with part of the settings object is applied like --set', async () => {
    const p = file(
      'partial.json',
      JSON.stringify({
        displayMessageSettings: { candidateFeedback: 1 },
        imageProctoringSettings: { terminateTestAfterViolationCount: 4 },
      }),
    );
    const r = await runAndSee(['settings', 'set', '1003', '--file', p, '--yes']);
    expect(r.code).toBe(0);
    const after = await getJson('1003');
    expect(after.displayMessageSettings.candidateFeedback).toBe(1);
    expect(after.imageProctoringSettings.terminateTestAfterViolationCount).toBe(4);
  });

  it('--file - reads the settings from standard input', async () => {
    const r = await runAssess(['settings', 'set', '1003', '--file', '-', '--yes'], {
      env: s.env,
      stdin: JSON.stringify({ displayMessageSettings: { candidateFeedback: 0 } }),
    });
    expect(r.stderr).toMatch(/Updated 1 setting of test 1003/);
    expect(r.code).toBe(0);
    expect((await getJson('1003')).displayMessageSettings.candidateFeedback).toBe(0);
  });

  it('without --yes and without a terminal: exit 2 telling to pass --yes, and no request', async () => {
    const r = await runAndSee(['settings', 'set', '1002', '--set', 'questionSettings.randomAnswers=0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/needs confirmation/);
    expect(r.stderr).toMatch(/--yes/);
    expect(r.sent).toEqual([]);
  });

  it('an unknown --set key exits 2 in two lines saying where the keys are listed, before any request', async () => {
    const r = await runAndSee(['settings', 'set', '1002', '--set', 'questionSettings.shuffle=1', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "error: --set: unknown setting 'questionSettings.shuffle'\n  see every key: assess settings get <testId>\n",
    );
    expect(r.sent).toEqual([]);
  });

  it.each([
    [
      ['--set', 'windowViolationSettings.copyPaste=2'],
      /^error: --set windowViolationSettings.copyPaste: must be 0 or 1/,
    ],
    [
      ['--set', 'imageProctoringSettings.terminateTestAfterViolationCount=-3'],
      /^error: --set imageProctoringSettings.terminateTestAfterViolationCount: /,
    ],
    [['--set', 'testSettings.typeOfTest=single'], /^error: --set testSettings.typeOfTest: must be 0, 1 or 2/],
    [['--set', 'randomAnswers'], /^error: --set: expected section.field=value/],
    [[], /^error: --set: give at least one --set/],
    [['--file', '/nonexistent/settings.json'], /^error: --file: cannot read \/nonexistent\/settings.json \(ENOENT\)/],
  ])('bad input %j exits 2 naming the flag, before any request', async (args, message) => {
    const r = await runAndSee(['settings', 'set', '1002', ...args, '--yes']);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
    expect(r.sent).toEqual([]);
  });

  it('a settings file with bad JSON or wrong types exits 2 naming the file and the field, before any request', async () => {
    const bad = file('bad.json', '{"questionSettings": {"randomAnswers": 1,}');
    const r1 = await runAndSee(['settings', 'set', '1002', '--file', bad, '--yes']);
    expect(r1.code).toBe(2);
    expect(r1.stderr).toContain(
      `error: --file ${bad}: line 1, column 42: not valid JSON (a property name in double quotes expected)`,
    );
    expect(r1.sent).toEqual([]);

    const typed = file(
      'typed.json',
      '{"windowViolationSettings": {"displayViolationSettings": {"terminateTestAfterViolationCount": "3"}}}',
    );
    const r2 = await runAndSee(['settings', 'set', '1002', '--file', typed, '--yes']);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain(
      `error: --file ${typed}: line 1: ` +
        `windowViolationSettings.displayViolationSettings.terminateTestAfterViolationCount:`,
    );
    expect(r2.stderr).toContain('(got a string)');
    expect(r2.sent).toEqual([]);
  });

  it("the service's documented 400 {errors:[…]} exits 1 with its message", async () => {
    const current = await getJson('1001');
    const srv = await startServer((req, res) =>
      req.method === 'GET'
        ? json(res, 200, current)
        : json(res, 400, { errors: ['testSettings.testAliasName is required'] }),
    );
    try {
      const r = await runAssess(['settings', 'set', '1001', '--set', 'questionSettings.randomAnswers=1', '--yes'], {
        env: { ASSESS_BASE_URL: srv.url, ASSESS_API_KEY: 'k' },
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /error: POST \/v3\/tests\/1001\/settings → HTTP 400: testSettings.testAliasName is required/,
      );
    } finally {
      await srv.close();
    }
  });
});
