// The answers the production service is documented to give (vendor-facts.md), and the plausible
// variants the issue tried, served verbatim by a scripted server: the built binary must read
// each as the success it is. Also: a read that cannot be understood is printed as received, a
// write's odd answer is a warning, and a cancel whose answer was lost is confirmed, not failed.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { runAssess } from '../helpers/cli.js';
import { json, startServer, type Recorded } from '../helpers/http-server.js';

type Script = (req: Recorded, res: ServerResponse, n: number) => void;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function against(script: Script, args: string[]) {
  const server = await startServer(script);
  close = server.close;
  const r = await runAssess(args, {
    env: { ASSESS_BASE_URL: server.url, ASSESS_BASE_URL_V2: server.url, ASSESS_API_KEY: 'k-test-123' },
  });
  return { ...r, requests: server.requests };
}

const REPORT = {
  testInvitationId: 5001,
  testId: '292930',
  candidateEmail: 'a@example.com',
  attemptedOn: '2020-10-09T13:21:53',
  Status: 'Completed',
  scorePercentage: 70,
  candidatePoints: 91,
  totalTestPoints: 130,
  testName: 'Java',
  sections: [{ candidateScore: 91, sectionScore: 130, noOfQue: 10, sectionID: 11, sectionName: 'Core', Skills: null }],
};

describe('production answers are read as the successes they are', () => {
  it('invite answered 201 {testInvitationId, testUrl} without status → exit 0', async () => {
    const r = await against(
      (_q, res) => json(res, 201, { testInvitationId: 700001, testUrl: 'https://t.example/x' }),
      ['invite', '292930', '--email', 'a@example.com', '--name', 'A', '--json'],
    );
    expect(r.code, r.stderr).toBe(0);
    // every declared field, the one production leaves out as null
    expect(JSON.parse(r.stdout)).toMatchObject({
      testInvitationId: 700001,
      testUrl: 'https://t.example/x',
      status: null,
      emailed: false,
    });
    expect(r.stderr).not.toMatch(/warning/);
  });

  it('a report spelling Status, with "Skills": null and sectionID → exit 0, status read as Complete', async () => {
    const r = await against((_q, res) => json(res, 200, REPORT), ['report', '5001', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse(r.stdout);
    // the id rule: a number while exact
    expect(rep).toMatchObject({ testInvitationId: 5001, status: 'Complete', testId: 292930 });
    expect(rep.sections[0]).toMatchObject({ sectionId: 11, Skills: null });
    const table = await against((_q, res) => json(res, 200, REPORT), ['report', '5001']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/Complete/);
  });

  it.each([
    ['{}', (res: ServerResponse) => json(res, 200, {})],
    [
      '{result: "…", errors: null}',
      (res: ServerResponse) => json(res, 200, { result: 'Invitation cancelled.', errors: null }),
    ],
    ['204', (res: ServerResponse) => res.writeHead(204).end()],
    [
      'production {status: "cancelled"}',
      (res: ServerResponse) => json(res, 200, { testInvitationId: 5001, status: 'cancelled' }),
    ],
  ])('attempts cancel answered %s → exit 0, Cancelled', async (_name, answer) => {
    const r = await against((_q, res) => answer(res), ['attempts', 'cancel', '5001', '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ testInvitationId: 5001, status: 'Cancelled' });
  });

  it('tests list with string ids inside {result:{tests}, errors:null} → exit 0, ids as numbers', async () => {
    const body = {
      result: {
        tests: [
          { testId: '1001', testName: 'Java' },
          { testId: '1002', testName: 'SQL' },
        ],
      },
      errors: null,
    };
    const r = await against((_q, res) => json(res, 200, body), ['tests', 'list', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).map((t: { testId: number }) => t.testId)).toEqual([1001, 1002]);
  });

  it('a 64-bit id beyond 2^53 is kept exact (as its digits)', async () => {
    const text = '{"tests":[{"testId":9007199254740993123,"testName":"Big"}]}';
    const r = await against(
      (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(text),
      ['tests', 'list', '--json'],
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)[0].testId).toBe('9007199254740993123');
  });

  it('tests get with "sections": null and attempts list with "name": null → exit 0', async () => {
    const get = await against(
      (_q, res) => json(res, 200, { testId: 1001, testName: 'Java', sections: null }),
      ['tests', 'get', '1001'],
    );
    expect(get.code, get.stderr).toBe(0);
    const attempts = {
      result: {
        testAttempts: [
          {
            testInvitationId: 9,
            testId: 1001,
            name: null,
            email: 'x@example.com',
            invitationtype: 'api',
            testStatus: 'Completed',
          },
        ],
      },
      errors: null,
    };
    const list = await against(
      (_q, res) => json(res, 200, attempts),
      ['attempts', 'list', '--state', 'completed', '--from', '7d', '--to', 'now', '--json'],
    );
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)[0]).toMatchObject({ testInvitationId: 9, name: null, testStatus: 'Complete' });
  });

  it('settings set on a test whose settings read back typeOfTest 0 sends it back unchanged → exit 0', async () => {
    const settings = {
      testSettings: { testName: 'Java', testAliasName: 'java', typeOfTest: 0, practiceTest: 0 },
      questionSettings: { randomQuestions: 0, randomAnswers: 0, showQuestionScore: 1 },
      windowViolationSettings: {
        copyPaste: 0,
        displayViolationSettings: {
          displayViolationPopUp: 1,
          terminateTestOnWindowViolation: 0,
          terminateTestAfterViolationCount: 3,
        },
      },
    };
    const r = await against(
      (q, res) => (q.method === 'GET' ? json(res, 200, settings) : json(res, 201, JSON.parse(q.body))),
      ['settings', 'set', '1001', '--set', 'questionSettings.randomQuestions=1', '--yes'],
    );
    expect(r.code, r.stderr).toBe(0);
    const sent = JSON.parse(r.requests.find((q) => q.method === 'POST')!.body);
    expect(sent.testSettings.typeOfTest).toBe(0);
    expect(sent.questionSettings.randomQuestions).toBe(1);
  });

  it('the gateway 401 {statusCode, message} is an authentication failure (exit 3)', async () => {
    const r = await against(
      (_q, res) =>
        json(res, 401, {
          statusCode: 401,
          message:
            'Access denied due to invalid subscription key. Make sure to provide a valid key for an active ' +
            'subscription.',
        }),
      ['tests', 'list'],
    );
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/Access denied/);
    expect(r.stderr).toMatch(/check ASSESS_API_KEY: the key it holds was refused/);
    expect(r.stderr).not.toMatch(/check the id/);
  });

  it.each([
    [
      'report',
      ['report', '999999'],
      { errors: ['Test invitation id 999999 does not belong to this account or was not found.'] },
    ],
    [
      'tests get',
      ['tests', 'get', '9999'],
      { statusCode: 401, message: 'Test id 9999 does not belong to this account or was not found.' },
    ],
    [
      'callbacks process',
      ['callbacks', 'process', '94761'],
      { result: null, errors: ['testinvitationIds does not belong to account or not found', '94761'] },
    ],
  ])("the service's 401 for an id it does not know is exit 4, not 3 (%s)", async (_name, args, body) => {
    const r = await against((_q, res) => json(res, 401, body), args);
    if (args[0] === 'callbacks') {
      // the unknown id is that row's failure: the call as a whole is a partial failure
      expect(r.code, r.stderr).toBe(5);
      return;
    }
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/check the id/);
    expect(r.stderr).not.toMatch(/auth status/);
  });
});

describe('a 500 is retried for a read (GET), never for a write', () => {
  it('attempts list answered 500 once, then 200 → exit 0 after two requests', async () => {
    const r = await against(
      (_q, res, n) =>
        n === 1
          ? json(res, 500, { statusCode: 500, message: 'Internal server error' })
          : json(res, 200, { result: [], errors: null }),
      ['attempts', 'list', '--state', 'completed', '--from', '2d', '--to', 'now', '--json'],
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.requests.length).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });

  it('a link create answered 500 is sent once (exit 1)', async () => {
    const r = await against(
      (_q, res) => json(res, 500, { statusCode: 500, message: 'Internal server error' }),
      ['links', 'create', '1001', '--name', 'x', '--valid-days', '7', '--tz', '1'],
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.requests.filter((q) => q.method === 'POST').length).toBe(1);
  });
});

describe('answers that cannot be understood', () => {
  it('a read without what identifies its answer (a listing without its list) is exit 1, nothing printed', async () => {
    const body = { data: { items: 'not what was expected' } };
    for (const args of [
      ['tests', 'list', '--json'],
      ['tests', 'list'],
    ]) {
      const r = await against((_q, res) => json(res, 200, body), args);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/GET \/v3\/tests was answered HTTP 200 with JSON without its tests list/);
    }
  });

  it('a read with its list whose rows cannot be read is printed as received with one warning (exit 0)', async () => {
    const body = { tests: [{ testName: 'no id here' }] };
    const asJson = await against((_q, res) => json(res, 200, body), ['tests', 'list', '--json']);
    expect(asJson.code, asJson.stderr).toBe(0);
    expect(JSON.parse(asJson.stdout)).toEqual(body);
    expect(asJson.stderr).toMatch(
      /warning: could not read the answer to GET \/v3\/tests.*showing the answer as received/,
    );
  });

  it('a write answered 2xx without the invitation id and URL is a failure, not "invited" (exit 1)', async () => {
    const r = await against(
      (_q, res) => json(res, 200, ['ok']),
      ['invite', '292930', '--email', 'a@example.com', '--name', 'A'],
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /POST \/v3\/tests\/292930\/invite was answered HTTP 200 with JSON without testInvitationId and testUrl/,
    );
  });

  it('an invite answered with an empty body may have invited the candidate: exit 1 saying so and how to check', async () => {
    const r = await against(
      (_q, res) => res.writeHead(201).end(),
      ['invite', '292930', '--email', 'a@example.com', '--name', 'A'],
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/answered HTTP 201 with an empty body: the candidate may have been invited/);
    expect(r.stderr).toMatch(/the same invite again returns that invitation/);
  });

  it('a write with its id and URL but an odd field succeeds, and says once what was odd (exit 0)', async () => {
    const r = await against(
      (_q, res) => json(res, 201, { testInvitationId: 'x-1', testUrl: 'https://t.example/x-1' }),
      ['invite', '292930', '--email', 'a@example.com', '--name', 'A', '--json'],
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ testUrl: 'https://t.example/x-1' });
    expect(r.stderr.match(/warning: the service accepted POST \/v3\/tests\/292930\/invite/g)).toHaveLength(1);
  });

  it('a 200 {result: null, errors: [..]} is the service saying no (exit 1, its message shown)', async () => {
    const r = await against(
      (_q, res) => json(res, 200, { result: null, errors: ["'Email' must not be empty."] }),
      ['invite', '292930', '--email', 'a@example.com', '--name', 'A'],
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/'Email' must not be empty/);
  });
});

describe('ambiguous outcomes are resolved by looking', () => {
  const refusal = {
    statusCode: 400,
    message: 'Testinvitation state in inprogress, complete, and expired can not be cancelled.',
  };

  it('cancel: first answer lost, the repeat refused, the report says Cancelled → exit 0 (confirmed)', async () => {
    let cancels = 0;
    const r = await against(
      (q, res) => {
        if (q.method === 'POST' && ++cancels === 1) return res.socket?.destroy(); // carried out, answer lost
        if (q.method === 'POST') return json(res, 400, refusal);
        return json(res, 200, { ...REPORT, Status: 'Cancelled' });
      },
      ['attempts', 'cancel', '5001', '--yes', '--json'],
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ testInvitationId: 5001, status: 'Cancelled' });
    expect(r.stderr).toMatch(/cancelled \(confirmed\)/);
    expect(r.requests.map((q) => q.method)).toEqual(['POST', 'POST', 'GET']);
  });

  it('cancel: the same refusal when the report is not Cancelled stays a refusal (exit 1)', async () => {
    let cancels = 0;
    const r = await against(
      (q, res) => {
        if (q.method === 'POST' && ++cancels === 1) return res.socket?.destroy();
        if (q.method === 'POST') return json(res, 400, refusal);
        return json(res, 200, { ...REPORT, Status: 'In Progress' });
      },
      ['attempts', 'cancel', '5001', '--yes'],
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/can not be cancelled/);
  });

  it('cancel: a refusal on the first try is not second-guessed (the report read only explains it)', async () => {
    const r = await against((_q, res) => json(res, 400, refusal), ['attempts', 'cancel', '5001', '--yes']);
    expect(r.code).toBe(1);
    // one cancel, then the invitation's state is read for the message; no second cancel
    expect(r.requests.map((q) => q.method)).toEqual(['POST', 'GET']);
    expect(r.stderr).not.toMatch(/confirmed/);
  });
});
