// `assess tests list|get` against the sandbox: every output format, paging (--page, --all),
// errors, and bad input stopped before any request.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { runInProcess as runAssess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => s?.close());

const run = (args: string[]) => runAssess(args, { env: s.env });
const serviceRequests = async () => (await s.requests()).filter((r) => r.path.startsWith('/v3/'));
const ACCOUNT_A_TESTS = [1001, 1002, 1003, 1004];

describe('assess tests list', () => {
  it('piped: one TSV row per test (id, name, status, minutes, questions), ids in full', async () => {
    const r = await run(['tests', 'list']);
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.map((c) => Number(c[0]))).toEqual(ACCOUNT_A_TESTS);
    expect(rows[0]).toEqual(['1001', 'Java Backend Developer', 'Active', '75', '17']);
    expect(rows[3]![2]).toBe('Inactive');
    expect((await serviceRequests()).at(-1)).toMatchObject({
      method: 'GET',
      path: '/v3/tests?pageNo=1&pageSize=20',
      status: 200,
    });
  });

  it('--json prints the service objects; --json fields keeps those; --ndjson one per line; --csv header + rows', async () => {
    const json = await run(['tests', 'list', '--json']);
    expect(json.code).toBe(0);
    const arr = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(arr.map((t) => t.testId)).toEqual(ACCOUNT_A_TESTS);
    expect(arr[0]).toMatchObject({
      testId: 1001,
      testName: 'Java Backend Developer',
      testStatus: 'Active',
      duration: 75,
      questions: 17,
    });

    const picked = await run(['tests', 'list', '--json', 'testId,testName']);
    expect(JSON.parse(picked.stdout)[1]).toEqual({ testId: 1002, testName: 'Frontend Developer (React)' });

    const nd = await run(['tests', 'list', '--ndjson']);
    const lines = nd.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[2]!).testId).toBe(1003);

    const csv = await run(['tests', 'list', '--csv']);
    const csvLines = csv.stdout.split('\r\n');
    expect(csvLines[0]).toBe('testId,testName,testStatus,duration,questions');
    expect(csvLines[2]).toBe('1002,Frontend Developer (React),Active,80,23');
  });

  it('--page and --page-size reach the service as pageNo/pageSize', async () => {
    const r = await run(['tests', 'list', '--page', '2', '--page-size', '3', '--json', 'testId']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ testId: 1004 }]);
    expect((await serviceRequests()).at(-1)!.path).toBe('/v3/tests?pageNo=2&pageSize=3');
  });

  it('--all follows the pages until the list is exhausted, streaming NDJSON', async () => {
    const before = (await serviceRequests()).length;
    const r = await run(['tests', 'list', '--all', '--page-size', '1', '--ndjson']);
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).testId),
    ).toEqual(ACCOUNT_A_TESTS);
    const sent = (await serviceRequests()).slice(before).map((q) => q.path);
    expect(sent).toEqual([1, 2, 3, 4].map((n) => `/v3/tests?pageNo=${n}&pageSize=1`));
  });

  it('--all whose later page fails: the rows so far as valid JSON, "incomplete" on stderr, exit 1', async () => {
    // seed 21: pages 1 and 2 come back, page 3 meets 5xx on every one of its 4 tries
    await s.control('POST', '/faults', { spec: '5xx=0.35,seed=21' });
    onTestFinished(() => s.control('DELETE', '/faults'));
    const r = await run(['tests', 'list', '--all', '--page-size', '1', '--json', 'testId']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual([{ testId: 1001 }, { testId: 1002 }]);
    expect(r.stderr).toMatch(
      /warning: the list is incomplete: 2 rows printed before it stopped \(the JSON array is closed\)\nerror: GET \/v3\/tests/,
    );
  });

  it('an empty page with --json prints [] and exits 0; as TSV prints nothing', async () => {
    const json = await run(['tests', 'list', '--page', '9', '--json']);
    expect(json.code).toBe(0);
    expect(json.stdout).toBe('[]\n');
    const tsv = await run(['tests', 'list', '--page', '9']);
    expect(tsv.code).toBe(0);
    expect(tsv.stdout).toBe('');
  });

  it('the other account sees only its own tests', async () => {
    const r = await runAssess(['tests', 'list', '--json', 'testId'], { env: { ...s.env, ASSESS_API_KEY: s.otherKey } });
    expect(JSON.parse(r.stdout)).toEqual([{ testId: 2001 }, { testId: 2002 }, { testId: 2003 }]);
  });

  it('a refused key exits 3', async () => {
    const r = await runAssess(['tests', 'list'], { env: { ...s.env, ASSESS_API_KEY: 'sk_not_a_key' } });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
  });

  it.each([
    [['--page', '0'], /^error: --page: must be at least 1/],
    [['--page', 'two'], /^error: --page: must be a whole number/],
    [['--page-size', '500'], /^error: --page-size: must be at most 100/],
    [['--page-size', '2.5'], /^error: --page-size: must be a whole number/],
  ])('bad input %j exits 2 naming the flag, before any request', async (args, message) => {
    const before = (await serviceRequests()).length;
    const r = await run(['tests', 'list', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(await serviceRequests()).toHaveLength(before);
  });
});

describe('assess tests get', () => {
  it('piped: key/value lines then one row per section and per skill', async () => {
    const r = await run(['tests', 'get', '1001']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toContain('testId\t1001');
    expect(lines).toContain('testName\tJava Backend Developer');
    expect(lines).toContain('defaultTestLinkId\t5001');
    expect(lines.some((l) => /^11\tCore Java\t/.test(l))).toBe(true);
    expect(lines.some((l) => /^Coding\t122\tDebugging\t1\t/.test(l))).toBe(true);
  });

  it('--json gives the test object with its sections; --json fields keeps those; --ndjson one line; --csv one row', async () => {
    const json = await run(['tests', 'get', '1001', '--json']);
    const t = JSON.parse(json.stdout);
    expect(t).toMatchObject({ testId: 1001, testName: 'Java Backend Developer' });
    expect(t.sections.map((x: { sectionName: string }) => x.sectionName)).toEqual(['Core Java', 'Coding']);

    const picked = await run(['tests', 'get', '1001', '--json', 'testId,testStatus']);
    expect(JSON.parse(picked.stdout)).toEqual({ testId: 1001, testStatus: 'Active' });

    const nd = await run(['tests', 'get', '1002', '--ndjson']);
    expect(nd.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(nd.stdout).testId).toBe(1002);

    const csv = await run(['tests', 'get', '1003', '--csv']);
    const [head, row] = csv.stdout.split('\r\n');
    expect(head).toBe('testId,testName,testStatus,duration,questions,totalPoints,accessKey,defaultTestLinkId');
    expect(row).toMatch(/^1003,Data Analyst \(SQL\),Active,45,25,/);
  });

  it('--json with an unknown field exits 2 listing the valid ones', async () => {
    const r = await run(['tests', 'get', '1001', '--json', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown field 'nope'/);
    expect(r.stderr).toMatch(/valid fields \(table heading\): testId \(Test ID\)/);
  });

  it("another account's test exits 4 (an id this key does not know)", async () => {
    const r = await run(['tests', 'get', '2001']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: GET \/v3\/tests\/2001 → HTTP 403/);
  });

  it.each([['abc'], ['-5'], ['12.5'], ['0']])(
    'a non-numeric test id %s exits 2 naming <testId>, before any request',
    async (id) => {
      const before = (await serviceRequests()).length;
      const r = await run(['tests', 'get', '--', id]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: <testId>: must be a positive integer id/);
      expect(await serviceRequests()).toHaveLength(before);
    },
  );
});
