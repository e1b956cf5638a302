// Reattempt: every row of the spec's table over HTTP, and the chain rule ("a new reattempt
// only after the previous one was completed; calling again returns the latest active one").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, REATTEMPT_BODY, type Harness } from './helpers.js';
import { driveTo } from './states.js';

let h: Harness;
beforeAll(async () => (h = await harness()));
afterAll(() => h.close());

const inv = async (id: number) => (await h.control('GET', `/invitations/${id}`)).body;
const reattempt = (id: number, body: Record<string, unknown> = {}) =>
  h.api('POST', `/v3/invitations/${id}/reattempt`, { ...REATTEMPT_BODY, ...body });

describe('reattempt — spec table', () => {
  it.each(['Pending', 'Cancelled', 'Expired'] as const)(
    '%s: same invitation, access replaced, Pending',
    async (state) => {
      const id = await h.inviteA(1001, `re-${state}@x.test`);
      await driveTo(h, id, state);
      const r = await reattempt(id, { CallbackUrl: 'http://127.0.0.1:9/cb' });
      expect(r.status).toBe(200);
      expect(r.body.testInvitationId).toBe(id);
      expect(r.body.callbackUrlRegistered).toBe('http://127.0.0.1:9/cb');
      expect(r.body).toHaveProperty('redirectUrlRegistered');
      const after = await inv(id);
      expect(after.status).toBe('Pending');
      expect([after.accessStart, after.accessEnd, after.timeZoneId]).toEqual([
        REATTEMPT_BODY.StartDateTime,
        REATTEMPT_BODY.EndDateTime,
        7,
      ]);
    },
  );

  it.each(['Complete', 'Test Left'] as const)(
    '%s: a new invitation inheriting all but access time and time zone',
    async (state) => {
      const id = await h.inviteA(1001, `re-${state.replace(' ', '')}@x.test`, {
        callbackUrl: 'http://127.0.0.1:9/orig',
        stakeholderEmails: 'boss@x.test',
        ProctoringMode: 'image',
      });
      await driveTo(h, id, state);
      const original = await inv(id);
      const r = await reattempt(id);
      expect(r.status).toBe(200);
      expect(r.body.testInvitationId).not.toBe(id);
      expect(r.body.testUrl).not.toBe(original.testUrl);
      expect(r.body.callbackUrlRegistered).toBe('http://127.0.0.1:9/orig');
      const fresh = await inv(r.body.testInvitationId);
      expect(fresh.status).toBe('Pending');
      expect(fresh.reattemptOf).toBe(id);
      expect([fresh.email, fresh.testLinkId, fresh.stakeholderEmails, fresh.proctoringMode]).toEqual([
        original.email,
        original.testLinkId,
        'boss@x.test',
        'image',
      ]);
      expect([fresh.accessStart, fresh.accessEnd, fresh.timeZoneId]).toEqual([
        REATTEMPT_BODY.StartDateTime,
        REATTEMPT_BODY.EndDateTime,
        7,
      ]);
      expect((await inv(id)).status).toBe(state); // the original attempt is untouched
    },
  );

  it('In Progress: 400 {statusCode:400, message} and nothing changes', async () => {
    const id = await h.inviteA(1001, 're-inprogress@x.test');
    await driveTo(h, id, 'In Progress');
    const before = await h.stateWithoutLog();
    const r = await reattempt(id);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ statusCode: 400, message: expect.stringMatching(new RegExp(`${id}.*in progress`)) });
    expect(await h.stateWithoutLog()).toEqual(before);
  });

  it('Terminated (not in the table) allows a reattempt like Test Left', async () => {
    const id = await h.inviteA(1001, 're-term@x.test');
    await driveTo(h, id, 'Terminated');
    const r = await reattempt(id);
    expect(r.status).toBe(200);
    expect(r.body.testInvitationId).not.toBe(id);
  });

  it('a missing body field → 400 {statusCode, message} naming it', async () => {
    const id = await h.inviteA(1001, 're-bad@x.test');
    const r = await h.api('POST', `/v3/invitations/${id}/reattempt`, { StartDateTime: '2030-01-01T00:00:00Z' });
    expect(r.status).toBe(400);
    expect(r.body.statusCode).toBe(400);
    expect(r.body.message).toMatch(/EndDateTime is required/);
  });
});

describe('reattempt chains', () => {
  it('calling again before the latest reattempt is taken returns that latest reattempt', async () => {
    const id = await h.inviteA(1001, 'chain1@x.test');
    await driveTo(h, id, 'Complete');
    const first = await reattempt(id);
    const again = await reattempt(id);
    expect(again.status).toBe(200);
    expect(again.body.testInvitationId).toBe(first.body.testInvitationId);
    expect(again.body.testUrl).toBe(first.body.testUrl);
  });
  it('after the latest reattempt is completed, a new one is made (multiple reattempts)', async () => {
    const id = await h.inviteA(1001, 'chain2@x.test');
    await driveTo(h, id, 'Complete');
    const r1 = (await reattempt(id)).body.testInvitationId;
    await h.move(r1, 'complete');
    const r2 = (await reattempt(id)).body.testInvitationId;
    expect(new Set([id, r1, r2]).size).toBe(3);
    expect((await inv(r2)).reattemptOf).toBe(r1);
    // invite on the default link now answers with the latest attempt
    const invite = await h.api('POST', '/v3/tests/1001/invite', { email: 'CHAIN2@x.test', name: 'C' });
    expect(invite.body.testInvitationId).toBe(r2);
  });
  it('while the latest reattempt is in progress, another reattempt is refused', async () => {
    const id = await h.inviteA(1001, 'chain3@x.test');
    await driveTo(h, id, 'Test Left');
    const r1 = (await reattempt(id)).body.testInvitationId;
    await h.move(r1, 'start');
    const r = await reattempt(id);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(String(r1));
  });
  it('sendEmail yes on a reattempt puts an e-mail in the outbox', async () => {
    const id = await h.inviteA(1001, 'chain4@x.test');
    await driveTo(h, id, 'Complete');
    const r = await reattempt(id, { sendEmail: 'yes' });
    const emails = (await h.control('GET', '/outbox')).body.emails;
    expect(emails.at(-1)).toMatchObject({
      to: 'chain4@x.test',
      kind: 'reattempt',
      testInvitationId: r.body.testInvitationId,
    });
  });
});
