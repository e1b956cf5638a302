// --query (JMESPath) on any command that prints JSON: applied once to the whole result (every page
// combined), refused before any request when it does not parse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess as run } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(() => s.close());

describe('--query', () => {
  it('sees every page of tests list --all as one array (not page by page)', async () => {
    const before = (await s.requests()).length;
    const r = await run(['tests', 'list', '--all', '--page-size', '1', '--query', 'length(@)'], { env: s.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toBe(4);
    expect((await s.requests()).length - before).toBeGreaterThanOrEqual(4); // one page per test
  });

  it('filters and projects; --ndjson prints one element per line', async () => {
    const r = await run(['tests', 'list', '--query', "[?testStatus=='Active'].testId", '--ndjson'], { env: s.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('1001\n1002\n1003\n');
  });

  it('works on a single object (report) and on assess api', async () => {
    const rep = await run(['report', '900001', '--query', '{id: testInvitationId, s: status}'], { env: s.env });
    expect(JSON.parse(rep.stdout)).toEqual({ id: 900001, s: 'Complete' });
    const raw = await run(['api', 'GET', '/v3/tests', '--query', 'tests[0].testId'], { env: s.env });
    expect(raw.code, raw.stderr).toBe(0);
    expect(JSON.parse(raw.stdout)).toBe(1001);
  });

  it.each([
    [['tests', 'list', '--query', '[?'], /--query: Syntax error/],
    [['tests', 'list', '--query', '[].testId', '--csv'], /--query and --csv cannot be used together/],
    [['tests', 'list', '--query', '[].testId', '--json', 'testId'], /--query and --json FIELDS cannot be used together/],
  ])('%j → exit 2 before any request', async (argv, message) => {
    const before = (await s.requests()).length;
    const r = await run(argv as string[], { env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect((await s.requests()).length).toBe(before);
  });
});
