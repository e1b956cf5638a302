// Invite via the default link and via a chosen link: every row of the spec's table, one attempt
// per candidate per link, the default link, copied link settings, and the optional fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './helpers.js';
import { driveTo, TABLE_STATES } from './states.js';

let h: Harness;
beforeAll(async () => (h = await harness()));
afterAll(() => h.close());

const NEW_ACCESS = { startDateTime: '2031-03-01T08:00:00Z', endDateTime: '2031-03-09T08:00:00Z', timeZoneId: 44 };
const inv = async (id: number) => (await h.control('GET', `/invitations/${id}`)).body;

describe('invite (default link) on an existing invitation — spec table', () => {
  const expected: Record<string, { next: string; replaced: boolean }> = {
    Pending: { next: 'Pending', replaced: true },
    Cancelled: { next: 'Pending', replaced: true },
    Expired: { next: 'Pending', replaced: true },
    Complete: { next: 'Complete', replaced: false },
    'In Progress': { next: 'In Progress', replaced: false },
    'Test Left': { next: 'Test Left', replaced: false },
  };
  it.each(TABLE_STATES)('%s', async (state) => {
    const email = `row-${state.replace(' ', '')}@table.test`;
    const id = await h.inviteA(1001, email);
    await driveTo(h, id, state);
    const before = await inv(id);
    const r = await h.api('POST', '/v3/tests/1001/invite', {
      email: email.toUpperCase(),
      name: 'Again',
      ...NEW_ACCESS,
    });
    expect(r.status).toBe(200);
    expect(r.body.testInvitationId).toBe(id);
    expect(r.body.status).toBe(expected[state].next);
    expect(r.body.testUrl).toBe(before.testUrl);
    const after = await inv(id);
    expect(after.status).toBe(expected[state].next);
    if (expected[state].replaced) {
      expect([after.accessStart, after.accessEnd, after.timeZoneId]).toEqual([
        NEW_ACCESS.startDateTime,
        NEW_ACCESS.endDateTime,
        44,
      ]);
    } else {
      expect([after.accessStart, after.accessEnd, after.timeZoneId]).toEqual([
        before.accessStart,
        before.accessEnd,
        before.timeZoneId,
      ]);
    }
  });
  it('Complete: the test page shows the already-appeared message', async () => {
    const id = await h.inviteA(1001, 'appeared@table.test');
    await driveTo(h, id, 'Complete');
    const r = await h.api('POST', '/v3/tests/1001/invite', { email: 'appeared@table.test', name: 'A' });
    const page = await fetch(r.body.testUrl);
    expect(await page.text()).toContain('already appeared');
  });
});

describe('invite via a chosen link on an existing invitation — same table', () => {
  const next: Record<string, string> = {
    Pending: 'Pending',
    Cancelled: 'Pending',
    Expired: 'Pending',
    Complete: 'Complete',
    'In Progress': 'In Progress',
    'Test Left': 'Test Left',
  };
  it.each(TABLE_STATES)('%s', async (state) => {
    const email = `link-${state.replace(' ', '')}@table.test`;
    const first = await h.api('POST', '/v3/tests/1001/testlinks/5002/invite', { email, name: 'L' });
    expect(first.status).toBe(201);
    const id = first.body.testInvitationId;
    await driveTo(h, id, state);
    const again = await h.api('POST', '/v3/tests/1001/testlinks/5002/invite', {
      email: email.toUpperCase(),
      name: 'L',
    });
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ testInvitationId: id, testUrl: first.body.testUrl });
    expect((await inv(id)).status).toBe(next[state]);
  });
});

describe('one attempt per candidate per link', () => {
  it('same e-mail on different links of one test → separate invitations', async () => {
    const a = await h.api('POST', '/v3/tests/1001/testlinks/5002/invite', { email: 'multi@link.test', name: 'M' });
    const b = await h.api('POST', '/v3/tests/1001/testlinks/5003/invite', { email: 'multi@link.test', name: 'M' });
    const c = await h.api('POST', '/v3/tests/1001/invite', { email: 'Multi@Link.test', name: 'M' });
    expect(new Set([a.body.testInvitationId, b.body.testInvitationId, c.body.testInvitationId]).size).toBe(3);
  });
  it("the chosen link's settings are copied to the invitation", async () => {
    const r = await h.api('POST', '/v3/tests/1001/testlinks/5003/invite', { email: 'copied@link.test', name: 'C' });
    const i = await inv(r.body.testInvitationId);
    const link = (await h.api('GET', '/v3/tests/1001/testlinks/5003')).body;
    expect(i.proctoringMode).toBe('video');
    expect(i.stakeholderEmails).toBe(link.stakeholderEmails);
    expect(i.accessStart).toBe(link.invitationSchedule.scheduleDetails.startDateTime);
    expect(i.accessEnd).toBe(link.invitationSchedule.scheduleDetails.endDateTime);
  });
  it('an inactive link refuses invitations with 400 {errors}', async () => {
    const r = await h.api('POST', '/v3/tests/1001/testlinks/5004/invite', { email: 'x@link.test', name: 'X' });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatch(/inactive/);
  });
  it('an unknown link on an owned test → 404', async () => {
    const r = await h.api('POST', '/v3/tests/1001/testlinks/5005/invite', { email: 'x@link.test', name: 'X' });
    expect(r.status).toBe(404);
    expect(r.body.errors[0]).toMatch(/5005/);
  });
});

describe('default link and optional fields', () => {
  it('the first invite on a test without a default link creates one; later invites use it', async () => {
    const before = (await h.api('GET', '/v3/tests/1002/testlinks')).body.testLinks;
    expect(before.some((l: any) => l.isApiLink)).toBe(false);
    const id = await h.inviteA(1002, 'first@default.test');
    const after = (await h.api('GET', '/v3/tests/1002/testlinks')).body.testLinks;
    const created = after.filter((l: any) => l.isApiLink);
    expect(created).toHaveLength(1);
    expect((await inv(id)).testLinkId).toBe(created[0].testLinkId);
    await h.inviteA(1002, 'second@default.test');
    expect(
      (await h.api('GET', '/v3/tests/1002/testlinks')).body.testLinks.filter((l: any) => l.isApiLink),
    ).toHaveLength(1);
    expect((await h.api('GET', '/v3/tests/1002')).body.defaultTestLinkId).toBe(created[0].testLinkId);
  });
  it('stakeholderEmails: omitted → the link value; "disable" kept per invitation', async () => {
    const a = await inv(await h.inviteA(1001, 'sh1@x.test'));
    expect(a.stakeholderEmails).toBe('hiring-manager@acme.example');
    const b = await inv(await h.inviteA(1001, 'sh2@x.test', { stakeholderEmails: 'disable' }));
    expect(b.stakeholderEmails).toBe('disable');
  });
  it('disableMandatoryFields generates a random name and e-mail', async () => {
    const r1 = await h.api('POST', '/v3/tests/1001/invite', { disableMandatoryFields: 1 });
    const r2 = await h.api('POST', '/v3/tests/1001/invite', { disableMandatoryFields: 1 });
    expect(r1.status).toBe(200);
    expect(r1.body.testInvitationId).not.toBe(r2.body.testInvitationId);
    const i = await inv(r1.body.testInvitationId);
    expect(i.email).toMatch(/@sandbox\.invalid$/);
    expect(i.name).toMatch(/^Candidate /);
  });
  it('sendEmail defaults to no; yes puts an e-mail in the outbox', async () => {
    const count = async () => (await h.control('GET', '/outbox')).body.emails.length;
    const n = await count();
    await h.inviteA(1001, 'quiet@mail.test');
    expect(await count()).toBe(n);
    await h.inviteA(1001, 'loud@mail.test', { sendEmail: 'yes' });
    const emails = (await h.control('GET', '/outbox')).body.emails;
    expect(emails).toHaveLength(n + 1);
    expect(emails.at(-1).to).toBe('loud@mail.test');
  });
  it('callbackURL (sample spelling) and callbackUrl are both registered', async () => {
    const a = await inv(await h.inviteA(1003, 'cb1@x.test', { callbackURL: 'http://127.0.0.1:9/cb' }));
    const b = await inv(
      await h.inviteA(1003, 'cb2@x.test', {
        callbackUrl: 'http://127.0.0.1:9/cb2',
        redirectURL: 'http://127.0.0.1:9/r',
      }),
    );
    expect(a.callbackUrl).toBe('http://127.0.0.1:9/cb');
    expect([b.callbackUrl, b.redirectUrl]).toEqual(['http://127.0.0.1:9/cb2', 'http://127.0.0.1:9/r']);
  });
  it('an inactive test refuses invitations', async () => {
    const r = await h.api('POST', '/v3/tests/1004/invite', { email: 'x@y.test', name: 'X' });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatch(/inactive/);
  });
});

describe('access window of an invite', () => {
  it('a start after the link window end → 400, nothing created', async () => {
    const before = (await h.control('GET', '/invitations?email=late@x.test')).body.invitations.length;
    const r = await h.api('POST', '/v3/tests/1001/invite', {
      email: 'late@x.test',
      name: 'L',
      startDateTime: '2099-01-01T00:00:00Z',
    });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatch(/before it starts/);
    expect((await h.control('GET', '/invitations?email=late@x.test')).body.invitations.length).toBe(before);
  });
});
