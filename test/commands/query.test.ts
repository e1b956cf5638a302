// --query (JMESPath) on any command that prints JSON: applied once to the whole result (every page
// combined), refused before any request when it does not parse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../helpers/http-server.js';
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
    [
      ['tests', 'list', '--query', '[].testId', '--json', 'testId'],
      /--query and --json FIELDS cannot be used together/,
    ],
  ])('%j → exit 2 before any request', async (argv, message) => {
    const before = (await s.requests()).length;
    const r = await run(argv as string[], { env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect((await s.requests()).length).toBe(before);
  });
});

describe('assess api --query on a body that is not JSON', () => {
  const KEY = 'sk_test_query_not_json_1234';
  it.each([
    [
      'GET',
      'text/html',
      '<!doctype html><p>maintenance</p>',
      /GET \/v3\/tests was answered HTTP 200 with a body that is not JSON \(text\/html; it starts "<!doctype html>/,
    ],
    [
      'GET',
      'application/json',
      '{"tests": [',
      /GET \/v3\/tests was answered HTTP 200 with a body that is not JSON \(application\/json;/,
    ],
    [
      'GET',
      'application/pdf',
      '%PDF-1.4 binary',
      /was answered HTTP 200 with a body that is not JSON \(application\/pdf; 15 bytes\)/,
    ],
    ['POST', 'text/plain', 'ok', /POST \/v3\/tests was answered HTTP 200 with a body that is not JSON/],
  ])(
    '%s answered %s: says so and suggests dropping --query, exit 1, nothing on stdout',
    async (method, type, body, message) => {
      const server = await startServer((_q, res) => {
        res.writeHead(200, { 'content-type': type });
        res.end(body);
      });
      try {
        const r = await run(['api', method, '/v3/tests', '--query', 'tests[0]'], {
          env: { ASSESS_BASE_URL: server.url, ASSESS_API_KEY: KEY },
        });
        expect(r.code).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(message);
        expect(r.stderr).toMatch(/so --query cannot apply\n {2}drop --query to see/);
        if (method === 'POST') expect(r.stderr).toMatch(/the POST was carried out: sending it again repeats it/);
        expect(r.stderr).not.toMatch(/looks like a bug/);
      } finally {
        await server.close();
      }
    },
  );

  it('a refusal with a body that is not JSON is the refusal (exit 4), and a JSON body sent as text/plain is queried', async () => {
    const server = await startServer((q, res) => {
      res.writeHead(q.url.includes('missing') ? 404 : 200, { 'content-type': 'text/plain' });
      res.end(q.url.includes('missing') ? 'Not Found' : '{"tests": [{"testId": 7}]}');
    });
    try {
      const env = { ASSESS_BASE_URL: server.url, ASSESS_API_KEY: KEY };
      const missing = await run(['api', 'GET', '/v3/missing', '--query', 'a'], { env });
      expect([missing.code, missing.stdout]).toEqual([4, '']);
      expect(missing.stderr).toMatch(/HTTP 404: Not Found/);
      const plain = await run(['api', 'GET', '/v3/tests', '--query', 'tests[0].testId'], { env });
      expect([plain.code, plain.stdout, plain.stderr]).toEqual([0, '7\n', '']);
    } finally {
      await server.close();
    }
  });
});

describe('--query naming a field the output does not have', () => {
  it('warns once on stderr with the closest field; the result is still printed, exit 0', async () => {
    const r = await run(['tests', 'list', '--query', "[?status=='Active'].testName"], { env: s.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(r.stderr.match(/--query: no field/g)).toHaveLength(1);
    expect(r.stderr).toMatch(/no field 'status' \(did you mean 'testStatus'\?\)/);
  });

  it('a table heading finds its field; a single object too', async () => {
    const rep = await run(['report', '900001', '--query', '{id: invitationId}'], { env: s.env });
    expect(rep.stderr).toMatch(/no field 'invitationId' \(did you mean 'testInvitationId'\?\)/);
  });

  it('says nothing when every field exists', async () => {
    const r = await run(['tests', 'list', '--query', "[?testStatus=='Active'].testName"], { env: s.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/--query/);
  });
});

describe('one id rule in JSON and CSV: a number while exact, else a string', () => {
  it('testId and testInvitationId are numbers on every command: tests list, report, attempts list, callbacks reconcile', async () => {
    const tests = JSON.parse((await run(['tests', 'list', '--json', 'testId'], { env: s.env })).stdout);
    expect(typeof tests[0].testId).toBe('number');
    const rep = JSON.parse(
      (await run(['report', '900001', '--json', 'testId,testInvitationId'], { env: s.env })).stdout,
    );
    expect(rep).toEqual({ testId: 1001, testInvitationId: 900001 });
    const attempts = JSON.parse((await run(['attempts', 'list', '--from', '30d', '--json'], { env: s.env })).stdout);
    const reconcile = JSON.parse(
      (await run(['callbacks', 'reconcile', '--all', '--from', '30d', '--to', 'now', '--json'], { env: s.env })).stdout,
    );
    expect(typeof attempts[0].testInvitationId).toBe('number');
    expect(reconcile.length).toBeGreaterThan(0);
    expect(reconcile.every((m: { testInvitationId: unknown }) => typeof m.testInvitationId === 'number')).toBe(true);
    const csv = await run(['report', '900001', '--csv'], { env: s.env });
    expect(csv.stdout.split('\r\n')[1]).toMatch(/^900001,/);
  });
});
