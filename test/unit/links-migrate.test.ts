// The v2 → v3 link mapping of `links migrate` (accessTime, flags, statuses, dates), its plan
// (what exists is never created twice), and the v2 flag mapping of `links create|update --api v2`.
import { describe, expect, it } from 'vitest';
import type { V2TestLink } from '../../src/api/schemas/v2.js';
import { planMigration, v3LinkFromV2 } from '../../src/commands/links/shared/migrate-map.js';
import { v2CreateBody, v2LinkFields, v2MergeBody } from '../../src/commands/links/shared/v2.js';

const link = (over: Partial<V2TestLink> = {}): V2TestLink => ({
  testLinkId: 7,
  testId: 1001,
  testLinkName: 'Campus',
  testLinkAccessKey: 'k',
  accessTime: 1,
  startDateTime: '2030-01-01T09:00:00',
  endDateTime: '2030-01-05T17:00:00',
  timeZoneId: 4,
  inviteCandidateOnly: 1,
  imageProctoring: 1,
  emailToStakeholder: 'hr@example.com',
  testLinkStatus: 1,
  ...over,
});

describe('v3LinkFromV2', () => {
  it('accessTime 1 → timebound with the Z added; flags and status mapped', () => {
    expect(v3LinkFromV2(link())).toEqual({
      ok: true,
      body: {
        testLinkName: 'Campus',
        testLinkStatus: 'active',
        invitationType: 'email',
        proctoringSettings: { proctoringMode: 'image' },
        stakeholderEmails: 'hr@example.com',
        invitationSchedule: {
          scheduleType: 'timebound',
          scheduleDetails: {
            startDateTime: '2030-01-01T09:00:00Z',
            endDateTime: '2030-01-05T17:00:00Z',
            timeZoneId: 4,
          },
        },
      },
    });
  });
  it('accessTime 2 → slotwise; 3 → inactive; 0/0 → open, disabled; no stakeholders → none sent', () => {
    const m = v3LinkFromV2(
      link({ accessTime: 2, testLinkStatus: 3, inviteCandidateOnly: 0, imageProctoring: 0, emailToStakeholder: null }),
    );
    expect(m.ok && m.body).toMatchObject({
      testLinkStatus: 'inactive',
      invitationType: 'open',
      proctoringSettings: { proctoringMode: 'disabled' },
      invitationSchedule: { scheduleType: 'slotwise' },
    });
    expect(m.ok && 'stakeholderEmails' in m.body).toBe(false);
  });
  it('accessTime 0 (anytime) → validityindays, 3650 days by default or as asked', () => {
    const anytime = link({ accessTime: 0, startDateTime: null, endDateTime: null });
    expect(v3LinkFromV2(anytime)).toMatchObject({
      ok: true,
      body: {
        invitationSchedule: {
          scheduleType: 'validityindays',
          scheduleDetails: { invitationValidityInDays: 3650, timeZoneId: 4 },
        },
      },
    });
    expect(v3LinkFromV2(anytime, 30)).toMatchObject({
      ok: true,
      body: { invitationSchedule: { scheduleDetails: { invitationValidityInDays: 30 } } },
    });
  });
  it('what cannot become a valid v3 link says why', () => {
    expect(v3LinkFromV2(link({ startDateTime: null }))).toEqual({
      ok: false,
      reason: 'accessTime 1 without startDateTime/endDateTime',
    });
    expect(v3LinkFromV2(link({ timeZoneId: null }))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('timeZoneId'),
    });
    expect(v3LinkFromV2(link({ testLinkStatus: 2 }))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('testLinkStatus 2'),
    });
    expect(v3LinkFromV2(link({ accessTime: 5 }))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('accessTime 5'),
    });
    expect(v3LinkFromV2(link({ emailToStakeholder: 'nobody' }))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('stakeholderEmails'),
    });
    expect(v3LinkFromV2(link({ endDateTime: '2029-01-01T00:00:00' }))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('endDateTime must be after'),
    });
  });
});

describe('planMigration', () => {
  const v2 = [
    link({ testLinkId: 1, testLinkName: 'Same' }),
    link({ testLinkId: 2, testLinkName: 'Renamed elsewhere' }),
    link({ testLinkId: 3, testLinkName: 'New' }),
    link({ testLinkId: 4, testLinkName: 'new ' }),
    link({ testLinkId: 5, testLinkName: 'Broken', timeZoneId: null }),
  ];
  const v3 = [
    { testLinkId: 1, testLinkName: 'Same' },
    { testLinkId: 90, testLinkName: 'renamed ELSEWHERE' },
  ];
  const rows = planMigration(v2, v3);
  it('a v3 link of the same name (any case) is reused, never created again', () => {
    expect(rows.map((r) => [r.v2TestLinkId, r.action, r.v3TestLinkId])).toEqual([
      [1, 'exists', 1],
      [2, 'exists', 90],
      [3, 'create', null],
      [4, 'exists', null],
      [5, 'unmappable', null],
    ]);
    expect(rows[0]!.note).toBe('same link, already reachable through v3');
    expect(rows[1]!.note).toContain('exists');
    expect(rows[3]!.note).toContain('migrated first');
  });
  it('rows carry the v3 object to create and its schedule type', () => {
    expect(rows[2]).toMatchObject({ scheduleType: 'timebound', v3Link: { testLinkName: 'New' } });
    expect(rows[4]).toMatchObject({ scheduleType: null, v3Link: null });
  });
});

describe('links create|update --api v2 flags', () => {
  it('friendly flags → v2 fields; dates lose the Z', () => {
    expect(
      v2LinkFields({
        name: 'N',
        status: 'inactive',
        type: 'email',
        proctoring: 'image',
        stakeholders: 'a@example.com',
        tz: 3,
        start: '2030-01-01T09:00:00Z',
        end: '2030-01-02T09:00:00Z',
        slotwise: true,
      }),
    ).toEqual({
      testLinkName: 'N',
      testLinkStatus: 3,
      inviteCandidateOnly: 1,
      imageProctoring: 1,
      emailToStakeholder: 'a@example.com',
      timeZoneId: 3,
      startDateTime: '2030-01-01T09:00:00',
      endDateTime: '2030-01-02T09:00:00',
      accessTime: 2,
    });
    expect(v2LinkFields({ anytime: true })).toEqual({ accessTime: 0, startDateTime: null, endDateTime: null });
  });
  it('what v2 cannot express is a usage error', () => {
    expect(() => v2LinkFields({ validDays: 7 })).toThrow(/--valid-days.*--anytime/);
    expect(() => v2LinkFields({ proctoring: 'video' })).toThrow(/image proctoring only/);
  });
  it('create: defaults active, open, no proctoring; --start/--end → accessTime 1; none → 0', () => {
    expect(v2CreateBody({ name: 'A', anytime: true })).toEqual({
      testLinkName: 'A',
      accessTime: 0,
      inviteCandidateOnly: 0,
      imageProctoring: 0,
      testLinkStatus: 1,
    });
    expect(
      v2CreateBody({ name: 'B', start: '2030-01-01T09:00:00Z', end: '2030-01-02T09:00:00Z', tz: 1 }),
    ).toMatchObject({
      accessTime: 1,
      startDateTime: '2030-01-01T09:00:00',
      timeZoneId: 1,
    });
  });
  it('update: merged over the current link; dates on an anytime link make it time bound; anytime needs no dates', () => {
    const anytime = link({ accessTime: 0, startDateTime: null, endDateTime: null });
    expect(v2MergeBody(anytime, { start: '2030-03-01T00:00:00Z', end: '2030-03-02T00:00:00Z' })).toMatchObject({
      accessTime: 1,
      startDateTime: '2030-03-01T00:00:00',
      testLinkName: 'Campus',
    });
    expect(() => v2MergeBody(anytime, { slotwise: true })).toThrow(/no dates yet/);
    expect(v2MergeBody(link(), { anytime: true })).toMatchObject({
      accessTime: 0,
      startDateTime: null,
      endDateTime: null,
    });
    expect(v2MergeBody(link({ accessTime: 2 }), { end: '2030-01-09T00:00:00Z' })).toMatchObject({
      accessTime: 2,
      endDateTime: '2030-01-09T00:00:00',
    });
  });
});
