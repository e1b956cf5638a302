// The sandbox clock drives expiry; list attempts by state and date range; process callbacks.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './helpers.js';

let h: Harness;
beforeEach(async () => (h = await harness()));
afterEach(() => h.close());

const inv = async (id: number) => (await h.control('GET', `/invitations/${id}`)).body;
const list = (state: string, StartDateTime: string, EndDateTime: string) =>
  h.api('POST', `/v3/candidates/testattempts?state=${state}`, { StartDateTime, EndDateTime });
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe('clock-driven expiry', () => {
  it('validityindays: Pending expires once the clock passes the end', async () => {
    const id = await h.inviteA(1001, 'v@x.test'); // default link: 7 days
    await h.control('POST', '/clock', { advance: '6d' });
    expect((await inv(id)).status).toBe('Pending');
    const r = await h.control('POST', '/clock', { advance: '1d1h' });
    expect(r.body.expired).toContain(id);
    const after = await inv(id);
    expect(after.status).toBe('Expired');
    expect(after.expiredAt).toBe(after.accessEnd);
  });
  it('timebound: expires at the link end date; started attempts do not expire', async () => {
    const a = (await h.api('POST', '/v3/tests/1001/testlinks/5002/invite', { email: 'tb1@x.test', name: 'A' })).body
      .testInvitationId;
    const b = (await h.api('POST', '/v3/tests/1001/testlinks/5002/invite', { email: 'tb2@x.test', name: 'B' })).body
      .testInvitationId;
    await h.move(b, 'start');
    await h.control('POST', '/clock', { advance: '31d' });
    expect((await h.api('GET', `/v3/reports/${a}`)).body.status).toBe('Expired');
    expect((await inv(b)).status).toBe('In Progress');
  });
  it('an expired invitation shows in list attempts (expired) and can be re-invited', async () => {
    const id = await h.inviteA(1001, 'again@x.test');
    await h.control('POST', '/clock', { advance: '8d' });
    const listed = await list('expired', day(0), day(30));
    expect(listed.body.result.testAttempts.map((a: any) => a.testInvitationId)).toContain(id);
    const r = await h.api('POST', '/v3/tests/1001/invite', { email: 'again@x.test', name: 'A' });
    expect([r.body.testInvitationId, r.body.status]).toEqual([id, 'Pending']);
  });
  it('clock: freeze, set, advance formats, GET; bad input → 400', async () => {
    const set = await h.control('POST', '/clock', { freeze: true, set: '2031-05-01T12:00:00Z' });
    expect(set.body).toMatchObject({ now: '2031-05-01T12:00:00Z', frozen: true });
    expect((await h.control('POST', '/clock', { advance: 90 })).body.now).toBe('2031-05-01T12:01:30Z');
    expect((await h.control('POST', '/clock', { advance: '30m' })).body.now).toBe('2031-05-01T12:31:30Z');
    expect((await h.control('POST', '/clock', { advance: '1d2h' })).body.now).toBe('2031-05-02T14:31:30Z');
    expect((await h.control('POST', '/clock', { advance: 'soon' })).status).toBe(400);
    expect((await h.control('POST', '/clock', { tick: 1 })).status).toBe(400);
    // past the year 9999 (was a 500 "Invalid time value", or five-digit years): refused, unchanged
    const far = await h.control('POST', '/clock', { advance: 1e20 });
    expect(far.status).toBe(400);
    expect(far.body.errors[0]).toMatch(/years 1970 to 9999/);
    expect((await h.control('POST', '/clock', { set: '9999-12-31T00:00:00Z', advance: '2d' })).status).toBe(400);
    expect((await h.control('GET', '/clock')).body.now).toBe('2031-05-02T14:31:30Z');
    const running = await h.control('POST', '/clock', { freeze: false });
    expect(running.body.frozen).toBe(false);
    expect(running.body.now >= '2031-05-02T14:31:30Z').toBe(true);
  });
  it('simulate refuses moves the state machine forbids with 409', async () => {
    const id = await h.inviteA(1001, 's@x.test');
    await h.move(id, 'complete');
    const r = await h.control('POST', `/invitations/${id}/simulate`, { to: 'start' });
    expect(r.status).toBe(409);
    expect(r.body.errors[0]).toMatch(/Cannot start an invitation that is Complete/);
  });
});

describe('list attempts: grouping and date rules', () => {
  it('completed = Complete, Test Left and Terminated; cancelled; expired', async () => {
    const ids: Record<string, number> = {};
    for (const to of ['complete', 'leave', 'terminate', 'expire']) {
      ids[to] = await h.inviteA(1003, `${to}@group.test`);
      await h.move(ids[to], to);
    }
    ids.cancel = await h.inviteA(1003, 'cancel@group.test');
    await h.api('POST', `/v3/invitations/${ids.cancel}/cancel`);
    const get = async (state: string) => (await list(state, day(-1), day(1))).body.result.testAttempts;
    const completed = await get('completed');
    expect(completed.filter((a: any) => a.testId === 1003).map((a: any) => [a.testInvitationId, a.testStatus])).toEqual(
      [
        [ids.complete, 'Complete'],
        [ids.leave, 'Test Left'],
        [ids.terminate, 'Terminated'],
      ],
    );
    expect((await get('cancelled')).filter((a: any) => a.testId === 1003).map((a: any) => a.testInvitationId)).toEqual([
      ids.cancel,
    ]);
    expect((await get('expired')).filter((a: any) => a.testId === 1003).map((a: any) => a.testInvitationId)).toEqual([
      ids.expire,
    ]);
    expect(completed[0]).toEqual({
      testInvitationId: expect.any(Number),
      testId: expect.any(Number),
      name: expect.any(String),
      email: expect.any(String),
      invitationtype: expect.stringMatching(/^(api|app)$/),
      testStatus: expect.any(String),
    });
  });
  it('a date without time is 00:00:00; with and without Z are the same instant', async () => {
    await h.control('POST', '/clock', { set: '2032-03-10T15:30:00Z', freeze: true });
    const id = await h.inviteA(1003, 'dates@x.test');
    await h.move(id, 'complete');
    const has = async (from: string, to: string) =>
      (await list('completed', from, to)).body.result.testAttempts.some((a: any) => a.testInvitationId === id);
    expect(await has('2032-03-10', '2032-03-11')).toBe(true);
    expect(await has('2032-03-09', '2032-03-10')).toBe(false); // end 2032-03-10 means 00:00:00
    expect(await has('2032-03-10T15:30:00', '2032-03-10T15:30:00')).toBe(true);
    expect(await has('2032-03-10T15:30:00Z', '2032-03-10T15:30:00Z')).toBe(true);
    expect(await has('2032-03-10T15:30:01Z', '2032-03-11')).toBe(false);
  });
});

describe('process callbacks', () => {
  it('queues known ids with a callback URL; ids with nothing to send are failed', async () => {
    const withCb = await h.inviteA(1001, 'cb@x.test', { callbackUrl: 'http://127.0.0.1:9/hook' });
    await h.move(withCb, 'complete', { score: 90 });
    const statusEvents = (await h.control('GET', '/callbacks')).body.callbacks.filter(
      (c: any) => c.testInvitationId === withCb,
    );
    expect(statusEvents.map((c: any) => c.status)).toEqual(['In Progress', 'Complete']);
    const r = await h.api('POST', '/v3/callbacks/process', { testinvitationIds: [withCb, 900004] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: { testinvitationIds: { successful: [withCb], failed: [900004] } }, errors: null });
    const queued = (await h.control('GET', '/callbacks')).body.callbacks.at(-1);
    expect(queued).toMatchObject({ testInvitationId: withCb, reason: 'reprocess', url: 'http://127.0.0.1:9/hook' });
    expect(queued.payload).toMatchObject({
      TestInvitationId: withCb,
      CandidateEmailId: 'cb@x.test',
      Status: 'Complete',
    });
    expect(queued.payload.ReportPDFUrl).toMatch(new RegExp(`/v3/reports/${withCb}/pdf$`));
  });
  it('exactly 100 ids are accepted', async () => {
    const ids = Array.from({ length: 100 }, () => 900001);
    const r = await h.api('POST', '/v3/callbacks/process', { testinvitationIds: ids });
    expect(r.status).toBe(200);
  });
  it('a foreign id → 401 naming it, and nothing is queued', async () => {
    const before = (await h.control('GET', '/callbacks')).body.callbacks.length;
    const r = await h.api('POST', '/v3/callbacks/process', { testinvitationIds: [900001, 900008] });
    expect(r.status).toBe(401);
    expect(r.body.errors).toContain('900008');
    expect((await h.control('GET', '/callbacks')).body.callbacks.length).toBe(before);
  });
});
