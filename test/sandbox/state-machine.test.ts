import { describe, expect, it } from 'vitest';
import type { InvitationStatus } from '../../src/api/schemas/v3.js';
import {
  accessWindowFromSchedule,
  ATTEMPT_GROUPS,
  cancelTransition,
  inviteOnExisting,
  isDueForExpiry,
  overrideAccess,
  reattemptOn,
  reattemptPlan,
  simulateTransition,
} from '../../src/sandbox/state-machine.js';

describe('invite on an existing invitation (spec table, 6 rows)', () => {
  it.each<[InvitationStatus, string, InvitationStatus, boolean]>([
    ['Pending', 'replace-access', 'Pending', false],
    ['Cancelled', 'reopen', 'Pending', false],
    ['Expired', 'reopen', 'Pending', false],
    ['Complete', 'return', 'Complete', true],
    ['In Progress', 'return', 'In Progress', false],
    ['Test Left', 'return', 'Test Left', true],
  ])('%s → %s, next %s', (status, action, next, alreadyAppeared) => {
    expect(inviteOnExisting(status)).toEqual({ action, next, alreadyAppeared });
  });
  it('Terminated (not in the table) is treated like Test Left', () => {
    expect(inviteOnExisting('Terminated')).toEqual({ action: 'return', next: 'Terminated', alreadyAppeared: true });
  });
});

describe('reattempt (spec table, 6 rows)', () => {
  it('Pending: same invitation, access replaced, stays Pending', () => {
    expect(reattemptOn(1, 'Pending')).toEqual({ action: 'replace-access', on: 1, next: 'Pending' });
  });
  it.each<InvitationStatus>(['Cancelled', 'Expired'])('%s: same invitation back to Pending', (s) => {
    expect(reattemptOn(1, s)).toEqual({ action: 'reopen', on: 1, next: 'Pending' });
  });
  it.each<InvitationStatus>(['Complete', 'Test Left'])('%s: a new invitation', (s) => {
    expect(reattemptOn(1, s)).toEqual({ action: 'new-invitation', from: 1 });
  });
  it('In Progress: refused with a message naming the id and "in progress"', () => {
    const d = reattemptOn(42, 'In Progress');
    expect(d.action).toBe('refuse');
    expect(d.action === 'refuse' && d.message).toMatch(/42.*in progress/);
  });
  it('Terminated (not in the table): a new invitation like Test Left', () => {
    expect(reattemptOn(1, 'Terminated')).toEqual({ action: 'new-invitation', from: 1 });
  });
});

describe('reattempt chains: a new reattempt only after the previous one was taken', () => {
  it('latest reattempt still Pending → returns it again', () => {
    expect(reattemptPlan({ id: 1, status: 'Complete' }, { id: 2, status: 'Pending' })).toEqual({
      action: 'return-latest',
      on: 2,
    });
  });
  it('latest reattempt In Progress → refused naming the latest', () => {
    const d = reattemptPlan({ id: 1, status: 'Complete' }, { id: 2, status: 'In Progress' });
    expect(d.action === 'refuse' && d.message).toMatch(/latest reattempt 2 is in progress/);
  });
  it('latest reattempt taken → a new one from the latest', () => {
    expect(reattemptPlan({ id: 1, status: 'Complete' }, { id: 2, status: 'Test Left' })).toEqual({
      action: 'new-invitation',
      from: 2,
    });
  });
  it('latest reattempt cancelled → reopened', () => {
    expect(reattemptPlan({ id: 1, status: 'Complete' }, { id: 2, status: 'Cancelled' })).toEqual({
      action: 'reopen',
      on: 2,
      next: 'Pending',
    });
  });
  it('target is the latest → the plain table', () => {
    expect(reattemptPlan({ id: 3, status: 'Complete' }, { id: 3, status: 'Complete' })).toEqual({
      action: 'new-invitation',
      from: 3,
    });
  });
});

describe('simulated moves', () => {
  it.each<[InvitationStatus, Parameters<typeof simulateTransition>[1], InvitationStatus, boolean]>([
    ['Pending', 'start', 'In Progress', false],
    ['In Progress', 'complete', 'Complete', false],
    ['Pending', 'complete', 'Complete', true],
    ['In Progress', 'leave', 'Test Left', false],
    ['Pending', 'leave', 'Test Left', true],
    ['In Progress', 'terminate', 'Terminated', false],
    ['Pending', 'expire', 'Expired', false],
  ])('%s --%s--> %s', (from, to, next, impliesStart) => {
    expect(simulateTransition(from, to)).toEqual({ ok: true, next, impliesStart });
  });
  it.each<[InvitationStatus, Parameters<typeof simulateTransition>[1]]>([
    ['Complete', 'start'],
    ['In Progress', 'start'],
    ['Cancelled', 'complete'],
    ['Expired', 'start'],
    ['Complete', 'complete'],
    ['Test Left', 'terminate'],
    ['In Progress', 'expire'],
    ['Terminated', 'expire'],
  ])('%s --%s--> refused', (from, to) => {
    const t = simulateTransition(from, to);
    expect(t.ok).toBe(false);
    expect(!t.ok && t.message).toContain(from);
  });
});

describe('cancel', () => {
  it('Pending → Cancelled', () =>
    expect(cancelTransition(1, 'Pending')).toEqual({ ok: true, next: 'Cancelled', changed: true }));
  it('Cancelled again is refused, as production does', () =>
    expect(cancelTransition(1, 'Cancelled')).toEqual({
      ok: false,
      message: expect.stringMatching(/can not be cancelled/),
    }));
  it.each<InvitationStatus>(['In Progress', 'Complete', 'Test Left', 'Terminated', 'Expired'])('%s → refused', (s) => {
    const t = cancelTransition(9, s);
    expect(t.ok).toBe(false);
    expect(!t.ok && t.message).toMatch(/can not be cancelled/);
  });
});

describe('expiry and access windows', () => {
  const end = '2030-01-10T00:00:00Z';
  it('a Pending invitation past its end is due', () => {
    expect(isDueForExpiry({ status: 'Pending', accessEnd: end }, Date.parse(end) + 1)).toBe(true);
    expect(isDueForExpiry({ status: 'Pending', accessEnd: end }, Date.parse(end))).toBe(false);
  });
  it('only Pending expires', () => {
    expect(isDueForExpiry({ status: 'In Progress', accessEnd: end }, Date.parse(end) + 1)).toBe(false);
    expect(isDueForExpiry({ status: 'Pending', accessEnd: null }, Date.parse(end) + 1)).toBe(false);
  });
  it('validityindays: from now for N days', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(
      accessWindowFromSchedule(
        { scheduleType: 'validityindays', scheduleDetails: { invitationValidityInDays: 3, timeZoneId: 5 } },
        now,
      ),
    ).toEqual({
      accessStart: '2030-01-01T00:00:00Z',
      accessEnd: '2030-01-04T00:00:00Z',
      timeZoneId: 5,
    });
  });
  it('timebound: the link window; the request overrides what it gives', () => {
    const w = accessWindowFromSchedule(
      {
        scheduleType: 'timebound',
        scheduleDetails: { startDateTime: '2030-01-01T00:00:00Z', endDateTime: end, timeZoneId: 2 },
      },
      0,
    );
    expect(w).toEqual({ accessStart: '2030-01-01T00:00:00Z', accessEnd: end, timeZoneId: 2 });
    expect(overrideAccess(w, { endDateTime: '2030-02-01T00:00:00Z', timeZoneId: 9 })).toEqual({
      accessStart: '2030-01-01T00:00:00Z',
      accessEnd: '2030-02-01T00:00:00Z',
      timeZoneId: 9,
    });
  });
  it('list grouping: completed = Complete, Test Left, Terminated', () => {
    expect(ATTEMPT_GROUPS.completed.statuses).toEqual(['Complete', 'Test Left', 'Terminated']);
    expect(ATTEMPT_GROUPS.cancelled.statuses).toEqual(['Cancelled']);
    expect(ATTEMPT_GROUPS.expired.statuses).toEqual(['Expired']);
  });
});
