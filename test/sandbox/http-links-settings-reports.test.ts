// Test links (create/update/get), settings (full replace, constraint), tests list/detail,
// reports (consistent numbers, report types) and the PDF.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Report, TestDetail, TestLink, TestsListResponse } from '../../src/api/schemas/v3.js';
import { FULL_SETTINGS, harness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => (h = await harness()));
afterAll(() => h.close());

const TIMEBOUND = {
  scheduleType: 'timebound',
  scheduleDetails: { startDateTime: '2031-01-01T09:00:00Z', endDateTime: '2031-01-02T09:00:00Z', timeZoneId: 4 },
};

describe('tests', () => {
  it('list is paged (defaults pageNo 1, pageSize 20) and parses with the shared schema', async () => {
    const all = await h.api('GET', '/v3/tests');
    expect(TestsListResponse.parse(all.body).tests.map((t) => t.testId)).toEqual([1001, 1002, 1003, 1004]);
    expect(all.body).toMatchObject({ pageNo: 1, pageSize: 20, totalCount: 4 });
    const page2 = await h.api('GET', '/v3/tests?pageNo=2&pageSize=3');
    expect(page2.body.tests.map((t: any) => t.testId)).toEqual([1004]);
    expect(all.body.tests.find((t: any) => t.testId === 1004).testStatus).toBe('Inactive');
  });
  it('detail has sections with skills whose numbers add up', async () => {
    const t = TestDetail.parse((await h.api('GET', '/v3/tests/1002')).body);
    expect(t.sections!.reduce((a, s) => a + s.questions!, 0)).toBe(t.questions);
    expect(t.sections!.reduce((a, s) => a + s.duration!, 0)).toBe(t.duration);
    for (const s of t.sections!) expect(s.skills!.reduce((a, k) => a + k.questions!, 0)).toBe(s.questions);
  });
});

describe('test links', () => {
  it('seed links cover every schedule type and proctoring mode', async () => {
    const links = (await h.api('GET', '/v3/tests/1001/testlinks')).body.testLinks.map((l: unknown) =>
      TestLink.parse(l),
    );
    expect(new Set(links.map((l: any) => l.invitationSchedule.scheduleType))).toEqual(
      new Set(['validityindays', 'timebound', 'slotwise']),
    );
    expect(new Set(links.map((l: any) => l.proctoringSettings.proctoringMode))).toEqual(
      new Set(['disabled', 'image', 'video']),
    );
  });
  it('create → 200 link object; get returns the same', async () => {
    const r = await h.api('POST', '/v3/tests/1001/testlinks', {
      testId: 1001,
      testLinkName: 'Batch 7',
      testLinkStatus: 'active',
      invitationType: 'open',
      proctoringSettings: { proctoringMode: 'video' },
      stakeholderEmails: 'a@acme.example,b@acme.example',
      invitationSchedule: TIMEBOUND,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      testId: 1001,
      testLinkName: 'Batch 7',
      invitationType: 'open',
      isApiLink: false,
      invitationSchedule: TIMEBOUND,
    });
    const got = await h.api('GET', `/v3/tests/1001/testlinks/${r.body.testLinkId}`);
    expect(got.body).toEqual(r.body);
  });
  it('create: testId in the body must match the path', async () => {
    const r = await h.api('POST', '/v3/tests/1001/testlinks', {
      testId: 1002,
      testLinkName: 'x',
      invitationType: 'email',
      invitationSchedule: TIMEBOUND,
    });
    expect(r.status).toBe(400);
  });
  it('update changes only what is given and re-validates the schedule', async () => {
    const before = (await h.api('GET', '/v3/tests/1001/testlinks/5003')).body;
    const r = await h.api('POST', '/v3/tests/1001/testlinks/5003', { testLinkStatus: 'inactive' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ...before, testLinkStatus: 'inactive' });
    const sched = await h.api('POST', '/v3/tests/1001/testlinks/5003', {
      invitationSchedule: {
        scheduleType: 'validityindays',
        scheduleDetails: { invitationValidityInDays: 4, timeZoneId: 2 },
      },
    });
    expect(sched.body.invitationSchedule).toEqual({
      scheduleType: 'validityindays',
      scheduleDetails: { invitationValidityInDays: 4, timeZoneId: 2 },
    });
    const bad = await h.api('POST', '/v3/tests/1001/testlinks/5003', {
      proctoringSettings: { proctoringMode: 'audio' },
    });
    expect(bad.status).toBe(400);
  });
});

describe('settings', () => {
  it('get returns the full object; update is a full replace answered with 201', async () => {
    const current = await h.api('GET', '/v3/tests/1003/settings');
    expect(current.status).toBe(200);
    expect(Object.keys(current.body).sort()).toEqual(Object.keys(FULL_SETTINGS).sort());
    const next = { ...FULL_SETTINGS, testSettings: { ...FULL_SETTINGS.testSettings, testName: 'SQL v2' } };
    const r = await h.api('POST', '/v3/tests/1003/settings', next);
    expect(r.status).toBe(201);
    expect(r.body).toEqual(next);
    expect((await h.api('GET', '/v3/tests/1003/settings')).body).toEqual(next);
    expect((await h.api('GET', '/v3/tests/1003')).body.testName).toBe('SQL v2');
  });
  it('a missing required field → 400 listing it, and nothing changes', async () => {
    const before = (await h.api('GET', '/v3/tests/1001/settings')).body;
    const { windowViolationSettings: _w, ...partial } = FULL_SETTINGS;
    const r = await h.api('POST', '/v3/tests/1001/settings', partial);
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual(['windowViolationSettings is required']);
    expect((await h.api('GET', '/v3/tests/1001/settings')).body).toEqual(before);
  });
  it('allowing copy-paste turns the window violation popup off in what is stored and returned', async () => {
    const body = structuredClone(FULL_SETTINGS);
    body.windowViolationSettings.copyPaste = 1;
    body.windowViolationSettings.displayViolationSettings.displayViolationPopUp = 1;
    const r = await h.api('POST', '/v3/tests/1002/settings', body);
    expect(r.body.windowViolationSettings.displayViolationSettings.displayViolationPopUp).toBe(0);
    expect(
      (await h.api('GET', '/v3/tests/1002/settings')).body.windowViolationSettings.displayViolationSettings
        .displayViolationPopUp,
    ).toBe(0);
  });
});

describe('reports', () => {
  it('a completed attempt: numbers add up and match the requested score', async () => {
    const id = await h.inviteA(1001, 'report@x.test');
    await h.move(id, 'complete', { score: 73 });
    const r = Report.parse((await h.api('GET', `/v3/reports/${id}?reportType=3`)).body);
    expect(r.status).toBe('Complete');
    expect(r.scorePercentage).toBe(73);
    expect(r.scorePercentage).toBe(Math.round((r.candidatePoints! / r.totalTestPoints!) * 100));
    expect(r.sections!.reduce((a, s) => a + s.candidateScore, 0)).toBe(r.candidatePoints);
    expect(r.sections!.reduce((a, s) => a + s.sectionScore, 0)).toBe(r.totalTestPoints);
    for (const s of r.sections!) expect(s.Skills!.reduce((a, k) => a + k.candidateQbScore, 0)).toBe(s.candidateScore);
    expect(r.pdfReportUrl).toBe(`${h.sb.baseUrl}/v3/reports/${id}/pdf`);
    expect(r.testId).toBe('1001');
  });
  it('per-section scores', async () => {
    const id = await h.inviteA(1001, 'sections@x.test');
    await h.move(id, 'complete', { sectionScores: [100, 0] });
    const r = (await h.api('GET', `/v3/reports/${id}?reportType=1`)).body;
    expect(r.sections.map((s: any) => s.candidateScore === s.sectionScore)).toEqual([true, false]);
    expect(r.sections[1].candidateScore).toBe(0);
    expect(r.sections[0]).toHaveProperty('sectionID');
  });
  it('per-section scores must be one per section: 400 naming the count, the invitation unmoved', async () => {
    const id = await h.inviteA(1001, 'sections-count@x.test');
    for (const sectionScores of [[10, 20, 30, 40, 50], [10], []]) {
      const r = await h.control('POST', `/invitations/${id}/simulate`, { to: 'complete', sectionScores });
      expect(r.status, JSON.stringify(sectionScores)).toBe(400);
      expect(r.body.errors[0]).toMatch(
        new RegExp(`^sectionScores: ${sectionScores.length} scores? given, but test 1001 has 2 sections;`),
      );
    }
    expect((await h.control('GET', `/invitations/${id}`)).body.status).toBe('Pending');
  });
  it('reportType defaults to 1; 2 gives skills', async () => {
    const one = (await h.api('GET', '/v3/reports/900001')).body;
    expect(one.reportType).toBe(1);
    expect(one.sections[0].Skills).toBeUndefined();
    const two = (await h.api('GET', '/v3/reports/900001?reportType=2')).body;
    expect(two.Skills.length).toBeGreaterThan(0);
  });
  it('a pending attempt has a report without scores and no PDF', async () => {
    const r = (await h.api('GET', '/v3/reports/900004')).body;
    expect(r).toMatchObject({ status: 'Pending', scorePercentage: null, pdfReportUrl: null, sections: [] });
    const pdf = await h.api('GET', '/v3/reports/900004/pdf');
    expect(pdf.status).toBe(400);
  });
  it('the PDF is a real PDF and needs the key', async () => {
    const url = (await h.api('GET', '/v3/reports/900001')).body.pdfReportUrl;
    const res = await fetch(url, { headers: { 'X-API-KEY': h.keyA } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(1000);
    expect((await fetch(url)).status).toBe(400);
  });
  it('the request log has no key and redacts key-like body fields', async () => {
    await h.api('POST', '/v3/tests/1001/invite', { email: 'log@x.test', name: 'L', apiKey: 'secret-value' });
    const log = JSON.stringify((await h.control('GET', '/requests')).body);
    expect(log).not.toContain(h.keyA);
    expect(log).not.toContain('secret-value');
    expect(log).toContain('log@x.test');
  });
});

describe('request log', () => {
  it('keeps method, path, status and body; summarises bodies over 16 kB', async () => {
    await h.api('POST', '/v3/callbacks/process', {
      testinvitationIds: Array.from({ length: 5000 }, (_, i) => 900001 + i),
    });
    const last = (await h.control('GET', '/requests?limit=1')).body.requests[0];
    expect(last).toMatchObject({ method: 'POST', path: '/v3/callbacks/process', status: 400, accountId: 1 });
    expect(last.body).toEqual({ '[body omitted]': expect.stringMatching(/characters$/) });
    await h.control('DELETE', '/requests');
    expect((await h.control('GET', '/requests')).body.requests).toEqual([]);
  });
});
