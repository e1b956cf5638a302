// The ten v2 endpoints over raw HTTP: the {statuscode, description, result} envelope, paging
// defaults, register twice = same record updated, v2 and v3 views of one invitation agree, v2
// links are the v3 links, dates without Z (v2) vs with Z (v3), and the chosen v2 error shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './helpers.js';
import { v2 } from './v2-helpers.js';

let h: Harness;
let call: ReturnType<typeof v2>;
beforeAll(async () => {
  h = await harness();
  call = v2(h);
});
afterAll(() => h.close());

const envelope = (result: unknown) => ({ statuscode: '200.1', description: expect.any(String), result });
const V2_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

describe('tests', () => {
  it('list: default page_size 20 and page_no 1, testsCount is the total', async () => {
    const r = await call('GET', '/v2/org/tests');
    expect(r.status).toBe(200);
    expect(r.body).toEqual(envelope({ tests: expect.any(Array), testsCount: 4 }));
    expect(r.body.result.tests.map((t: any) => t.testId)).toEqual([1001, 1002, 1003, 1004]);
    expect(r.body.result.tests[0]).toEqual({
      testId: 1001,
      testName: 'Java Backend Developer',
      accessKey: expect.any(String),
      duration: 75,
      questions: 17,
      testStatus: 'Active',
    });
    expect(r.body.result.tests[3].testStatus).toBe('Inactive');
  });
  it('list: page_size and page_no page through; a page past the end is empty; bad values are 400.1', async () => {
    expect((await call('GET', '/v2/org/tests?page_size=3&page_no=2')).body.result).toEqual({
      tests: [expect.objectContaining({ testId: 1004 })],
      testsCount: 4,
    });
    expect((await call('GET', '/v2/org/tests?page_size=3&page_no=9')).body.result.tests).toEqual([]);
    const bad = await call('GET', '/v2/org/tests?page_size=0');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ statuscode: '400.1', description: expect.stringContaining('page_size') });
  });
  it('detail with sections', async () => {
    const r = await call('GET', '/v2/org/tests/1001');
    expect(r.body).toEqual(envelope(expect.objectContaining({ testId: 1001, duration: 75, questions: 17 })));
    expect(r.body.result.sections).toEqual([
      { sectionName: 'Core Java', sectionType: 'General questions', questions: 14, duration: 30 },
      { sectionName: 'Coding', sectionType: 'Coding questions', questions: 3, duration: 45 },
    ]);
  });
});

describe('register', () => {
  it('creates one invitation (takeTestURL); posting again updates fullName, callbackURL and redirectURL of the same record', async () => {
    const first = await call('POST', '/v2/org/tests/1003/register', {
      emailId: 'reg@example.com',
      fullName: 'Reg One',
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual(
      envelope({
        testInvitationId: expect.any(Number),
        takeTestURL: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/take\//),
      }),
    );
    const id = first.body.result.testInvitationId;
    const again = await call('POST', '/v2/org/tests/1003/register', {
      emailId: 'REG@example.com',
      fullName: 'Reg Two',
      callbackURL: 'https://hooks.example/cb',
      redirectURL: 'https://example.com/done',
    });
    expect(again.body.result).toEqual(first.body.result);
    const all = (await h.control('GET', '/invitations?email=reg@example.com')).body.invitations;
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({
      testInvitationId: id,
      name: 'Reg Two',
      callbackUrl: 'https://hooks.example/cb',
      redirectUrl: 'https://example.com/done',
      status: 'Pending',
    });
  });
  it('also updates a record that was already taken (its state stays)', async () => {
    await call('POST', '/v2/org/tests/1001/register', {
      emailId: 'alice@example.com',
      fullName: 'Alice Renamed',
      callbackURL: 'https://hooks.example/a',
    });
    const inv = (await h.control('GET', '/invitations/900001')).body;
    expect(inv).toMatchObject({ name: 'Alice Renamed', callbackUrl: 'https://hooks.example/a', status: 'Complete' });
  });
  it('via a test link: testUrl and testAccessTime text; one record per link', async () => {
    const r = await call('POST', '/v2/org/tests/1001/testlinks/5002/register', {
      fullName: 'Link Reg',
      emailId: 'linkreg@example.com',
    });
    expect(r.body).toEqual(
      envelope({
        testInvitationId: expect.any(Number),
        testUrl: expect.stringContaining('/take/'),
        testAccessTime: expect.stringMatching(/^Time bound: from \S+ to \S+ UTC$/),
      }),
    );
    const anytime = await call('POST', '/v2/org/tests/1001/testlinks/5001/register', {
      fullName: 'Link Reg',
      emailId: 'linkreg@example.com',
    });
    expect(anytime.body.result.testInvitationId).not.toBe(r.body.result.testInvitationId);
    expect(anytime.body.result.testAccessTime).toMatch(
      /^Anytime: valid for 7 days, until \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2} UTC$/,
    );
    const slot = await call('POST', '/v2/org/tests/1001/testlinks/5003/register', {
      fullName: 'Link Reg',
      emailId: 'linkreg@example.com',
    });
    expect(slot.body.result.testAccessTime).toMatch(
      /^Slot wise: daily \d{2}:\d{2}-\d{2}:\d{2} UTC, from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}$/,
    );
  });
  it('refuses bad bodies, inactive tests and inactive links with 400.1', async () => {
    const missing = await call('POST', '/v2/org/tests/1001/register', { fullName: 'No Mail' });
    expect(missing).toMatchObject({ status: 400, body: { statuscode: '400.1', description: 'emailId is required' } });
    const badMail = await call('POST', '/v2/org/tests/1001/register', { emailId: 'nope', fullName: 'X' });
    expect(badMail.body.description).toContain('emailId');
    expect(
      (await call('POST', '/v2/org/tests/1004/register', { emailId: 'x@example.com', fullName: 'X' })).body.description,
    ).toContain('inactive');
    expect(
      (await call('POST', '/v2/org/tests/1001/testlinks/5004/register', { emailId: 'x@example.com', fullName: 'X' }))
        .status,
    ).toBe(400);
    const json = await call('POST', '/v2/org/tests/1001/register', '{"emailId":');
    expect(json).toMatchObject({
      status: 400,
      body: { statuscode: '400.1', description: expect.stringContaining('Malformed JSON') },
    });
  });
});

describe('reports', () => {
  it('report of a completed attempt: v2 fields, testStatus Completed, reportStatus Generated', async () => {
    const r = await call('GET', '/v2/org/report/900008', undefined, h.keyB);
    expect(r.body).toEqual(
      envelope({
        testInvitationId: 900008,
        emailId: 'heidi@example.com',
        fullName: 'Heidi Hart',
        timeTaken: expect.any(Number),
        testName: 'Python Developer',
        duration: 70,
        questions: 22,
        attemptedOn: expect.stringMatching(V2_DATE),
        totalScore: '150',
        score: '96',
        wv: 0,
        tv: 0,
        testStatus: 'Completed',
        reportStatus: 'Generated',
      }),
    );
  });
  it('statuses before and during an attempt; wv/tv once taken', async () => {
    expect((await call('GET', '/v2/org/report/900004')).body.result).toMatchObject({
      testStatus: 'Pending',
      reportStatus: 'Pending',
      score: null,
      attemptedOn: null,
    });
    expect((await call('GET', '/v2/org/report/900005')).body.result).toMatchObject({
      testStatus: 'In progress',
      reportStatus: 'In progress',
    });
    expect((await call('GET', '/v2/org/report/900003')).body.result).toMatchObject({
      testStatus: 'Completed',
      reportStatus: 'Generated',
      wv: 3,
      tv: 69,
    });
  });
  it('section report: sectionName, sectionScore, candidateScore; empty before a result', async () => {
    const r = await call('GET', '/v2/org/report/900001/sections');
    expect(r.body).toEqual(
      envelope([
        { sectionName: 'Core Java', sectionScore: 70, candidateScore: expect.any(Number) },
        { sectionName: 'Coding', sectionScore: 60, candidateScore: expect.any(Number) },
      ]),
    );
    const v3 = await h.api('GET', '/v3/reports/900001?reportType=1');
    expect(r.body.result.map((s: any) => s.candidateScore)).toEqual(v3.body.sections.map((s: any) => s.candidateScore));
    expect((await call('GET', '/v2/org/report/900004/sections')).body.result).toEqual([]);
  });
  it('PDF: a real PDF once taken, 400.1 before', async () => {
    const r = await call('GET', '/v2/org/report/900001/pdf');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/pdf');
    expect((r.body as Buffer).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(await call('GET', '/v2/org/report/900004/pdf')).toMatchObject({
      status: 400,
      body: { statuscode: '400.1' },
    });
  });
});

describe('v2 and v3 views of one invitation agree', () => {
  it('registered through v2, read through both: id, e-mail, status, scores', async () => {
    const reg = await call('POST', '/v2/org/tests/1001/register', {
      emailId: 'both@example.com',
      fullName: 'Both Views',
    });
    const id = reg.body.result.testInvitationId;
    await h.move(id, 'complete', { score: 75 });
    const [r2, r3] = [
      (await call('GET', `/v2/org/report/${id}`)).body.result,
      (await h.api('GET', `/v3/reports/${id}`)).body,
    ];
    expect(r2.testInvitationId).toBe(r3.testInvitationId);
    expect(r2.emailId).toBe(r3.candidateEmail);
    expect([r2.testStatus, r3.status]).toEqual(['Completed', 'Complete']);
    expect(Number(r2.score)).toBe(r3.candidatePoints);
    expect(Number(r2.totalScore)).toBe(r3.totalTestPoints);
    expect(`${r2.attemptedOn}Z`).toBe(r3.attemptedOn);
  });
  it('invited through v3, registered again through v2: the same invitation', async () => {
    const inv = await h.api('POST', '/v3/tests/1002/invite', { email: 'v3first@example.com', name: 'V3 First' });
    const reg = await call('POST', '/v2/org/tests/1002/register', {
      emailId: 'v3first@example.com',
      fullName: 'V2 Second',
    });
    expect(reg.body.result.testInvitationId).toBe(inv.body.testInvitationId);
    expect((await h.api('GET', `/v3/reports/${inv.body.testInvitationId}`)).body.candidateName).toBe('V2 Second');
  });
});

describe('test links', () => {
  it('list and get: the v3 links in v2 shape (numeric accessTime, flags, dates without Z)', async () => {
    const list = (await call('GET', '/v2/org/tests/1001/testlinks')).body.result.testLinks;
    expect(
      list
        .slice(0, 4)
        .map((l: any) => [l.testLinkId, l.accessTime, l.testLinkStatus, l.inviteCandidateOnly, l.imageProctoring]),
    ).toEqual([
      [5001, 0, 1, 1, 0],
      [5002, 1, 1, 1, 1],
      [5003, 2, 1, 1, 0],
      [5004, 0, 3, 0, 0],
    ]);
    const one = await call('GET', '/v2/org/tests/1001/testlinks/5002');
    expect(one.body).toEqual(
      envelope(
        expect.objectContaining({
          testLinkId: 5002,
          testLinkAccessKey: expect.any(String),
          startDateTime: expect.stringMatching(V2_DATE),
          endDateTime: expect.stringMatching(V2_DATE),
        }),
      ),
    );
    const v3 = (await h.api('GET', '/v3/tests/1001/testlinks/5002')).body;
    expect(`${one.body.result.startDateTime}Z`).toBe(v3.invitationSchedule.scheduleDetails.startDateTime);
    expect(one.body.result.testLinkAccessKey).toBe(v3.testLink);
    expect((await call('GET', '/v2/org/tests/1001/testlinks/5005')).status).toBe(404);
  });
  it('create with defaults (accessTime 0, account time zone and e-mail, status 1); seen by v3 as validityindays', async () => {
    const r = await call('POST', '/v2/org/tests/1003/testlinks', { testLinkName: 'v2 anytime' });
    expect(r.body).toEqual(
      envelope(
        expect.objectContaining({
          accessTime: 0,
          startDateTime: null,
          endDateTime: null,
          timeZoneId: 1,
          inviteCandidateOnly: 0,
          imageProctoring: 0,
          emailToStakeholder: 'hr@acme.example',
          testLinkStatus: 1,
        }),
      ),
    );
    const v3 = (await h.api('GET', `/v3/tests/1003/testlinks/${r.body.result.testLinkId}`)).body;
    expect(v3).toMatchObject({
      testLinkStatus: 'active',
      invitationType: 'open',
      proctoringSettings: { proctoringMode: 'disabled' },
      invitationSchedule: {
        scheduleType: 'validityindays',
        scheduleDetails: { invitationValidityInDays: 3650, timeZoneId: 1 },
      },
    });
  });
  it('create time bound / slot wise with v2 dates; v3 sees timebound / slotwise with Z dates', async () => {
    const body = {
      testLinkName: 'v2 slots',
      accessTime: 2,
      timeZoneId: 9,
      inviteCandidateOnly: 1,
      imageProctoring: 1,
      emailToStakeholder: 'a@example.com,b@example.com',
      testLinkStatus: 3,
      startDateTime: '2030-01-01T09:00:00',
      endDateTime: '2030-01-10T17:00:00',
    };
    const r = await call('POST', '/v2/org/tests/1003/testlinks', body);
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({ ...body, testLinkAccessKey: expect.any(String) });
    const v3 = (await h.api('GET', `/v3/tests/1003/testlinks/${r.body.result.testLinkId}`)).body;
    expect(v3).toMatchObject({
      testLinkStatus: 'inactive',
      invitationType: 'email',
      proctoringSettings: { proctoringMode: 'image' },
      stakeholderEmails: 'a@example.com,b@example.com',
      invitationSchedule: {
        scheduleType: 'slotwise',
        scheduleDetails: { startDateTime: '2030-01-01T09:00:00Z', endDateTime: '2030-01-10T17:00:00Z', timeZoneId: 9 },
      },
    });
  });
  it('dates: v2 takes YYYY-MM-ddTHH:mm:ss and refuses the Z form; v3 takes the Z form and refuses the v2 one', async () => {
    const v2Z = await call('POST', '/v2/org/tests/1003/testlinks', {
      testLinkName: 'z',
      accessTime: 1,
      startDateTime: '2030-01-01T09:00:00Z',
      endDateTime: '2030-01-02T09:00:00Z',
    });
    expect(v2Z).toMatchObject({
      status: 400,
      body: { statuscode: '400.1', description: expect.stringContaining('no Z suffix') },
    });
    const v3Plain = await h.api('POST', '/v3/tests/1003/testlinks', {
      testLinkName: 'plain',
      invitationType: 'open',
      invitationSchedule: {
        scheduleType: 'timebound',
        scheduleDetails: { startDateTime: '2030-01-01T09:00:00', endDateTime: '2030-01-02T09:00:00', timeZoneId: 1 },
      },
    });
    expect(v3Plain.status).toBe(400);
    expect(v3Plain.body.errors.join(' ')).toContain('YYYY-MM-ddTHH:mm:ssZ');
    const v3Invite = await h.api('POST', '/v3/tests/1003/invite', {
      email: 'd@example.com',
      name: 'D',
      startDateTime: '2030-01-01T09:00:00',
      endDateTime: '2030-01-02T09:00:00',
    });
    expect(v3Invite.status).toBe(400);
  });
  it('create refuses what v2 does not allow (400.1)', async () => {
    const cases = [
      [{ testLinkName: 'x', accessTime: 1 }, 'startDateTime is required'],
      [{ accessTime: 0 }, 'testLinkName is required'],
      [{ testLinkName: 'x', accessTime: 3 }, 'accessTime'],
      [{ testLinkName: 'x', testLinkStatus: 2 }, 'testLinkStatus'],
      [
        { testLinkName: 'x', accessTime: 1, startDateTime: '2030-01-02T09:00:00', endDateTime: '2030-01-01T09:00:00' },
        'after startDateTime',
      ],
      [{ testLinkName: 'x', emailToStakeholder: 'not-mail' }, 'emailToStakeholder'],
    ] as const;
    for (const [body, text] of cases) {
      const r = await call('POST', '/v2/org/tests/1003/testlinks', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.description).toContain(text);
    }
  });
  it('update: given fields replace, the rest is kept; switching to anytime drops the dates', async () => {
    const created = (
      await call('POST', '/v2/org/tests/1003/testlinks', {
        testLinkName: 'upd',
        accessTime: 1,
        startDateTime: '2030-02-01T08:00:00',
        endDateTime: '2030-02-03T08:00:00',
      })
    ).body.result;
    const path = `/v2/org/tests/1003/testlinks/${created.testLinkId}`;
    const renamed = await call('POST', path, { testLinkName: 'upd 2', testLinkStatus: 3 });
    expect(renamed.body.result).toMatchObject({
      testLinkName: 'upd 2',
      testLinkStatus: 3,
      accessTime: 1,
      startDateTime: '2030-02-01T08:00:00',
    });
    const anytime = await call('POST', path, { accessTime: 0 });
    expect(anytime.body.result).toMatchObject({
      accessTime: 0,
      startDateTime: null,
      endDateTime: null,
      testLinkName: 'upd 2',
    });
    expect((await call('POST', path, { accessTime: 2 })).body).toMatchObject({
      statuscode: '400.1',
      description: expect.stringContaining('startDateTime is required'),
    });
    expect((await call('GET', path)).body.result.accessTime).toBe(0);
  });
});

describe('keys and unknown paths', () => {
  it('no key or a wrong key: 401 {statuscode:"401.1"} naming the x-api-key header; the v3 header name works too (any case)', async () => {
    const none = await call('GET', '/v2/org/tests', undefined, null);
    expect(none).toMatchObject({
      status: 401,
      body: { statuscode: '401.1', description: expect.stringContaining('x-api-key') },
    });
    expect((await call('GET', '/v2/org/tests', undefined, 'sk_wrong')).status).toBe(401);
    const upper = await fetch(`${h.sb.baseUrlV2}/v2/org/tests`, { headers: { 'X-API-KEY': h.keyA } });
    expect(upper.status).toBe(200);
  });
  it('an unknown v2 path is 404.1; a non-numeric id is 400.1', async () => {
    expect(await call('GET', '/v2/org/nothing')).toMatchObject({ status: 404, body: { statuscode: '404.1' } });
    expect(await call('GET', '/v2/org/report/abc')).toMatchObject({ status: 400, body: { statuscode: '400.1' } });
  });
});
