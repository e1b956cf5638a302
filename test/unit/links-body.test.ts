import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { TestLink } from '../../src/api/schemas/index.js';
import { validate } from '../../src/cli/command.js';
import { LINK_FLAG_KEYS, linkFlagShape, refineLinkFlags } from '../../src/commands/links/shared/body.js';
import { buildSchedule, createBody, mergeBody } from '../../src/commands/links/shared/request-body.js';
import type { ResolvedLinkFlags } from '../../src/commands/links/shared/body.js';
import { UsageError } from '../../src/errors.js';

const schema = (mode: 'create' | 'update') =>
  z.object(linkFlagShape).check(z.superRefine((v, c) => refineLinkFlags(v, c, mode)));
// digits-only --tz values (a name would be resolved through the service by the command)
const parse = (mode: 'create' | 'update', raw: Record<string, unknown>) =>
  validate(schema(mode), raw) as ResolvedLinkFlags;
const usage = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error('expected a UsageError');
};

const current: TestLink = {
  testLinkId: 5002,
  testId: 1001,
  testLinkName: 'Campus',
  testLink: 'tl-x',
  testLinkStatus: 'active',
  invitationType: 'email',
  isApiLink: false,
  proctoringSettings: { proctoringMode: 'image' },
  stakeholderEmails: null,
  invitationSchedule: {
    scheduleType: 'timebound',
    scheduleDetails: {
      startDateTime: '2026-03-01T09:00:00Z',
      endDateTime: '2026-03-10T17:00:00Z',
      timeZoneId: 3,
      invitationValidityInDays: null,
    },
  },
};

describe('link flags', () => {
  it('LINK_FLAG_KEYS names exactly the fields of linkFlagShape (links update reads it without building the schemas)', () => {
    expect([...LINK_FLAG_KEYS].sort()).toEqual(Object.keys(linkFlagShape).sort());
  });
});

describe('links create flags', () => {
  it('--valid-days builds a validityindays schedule with the time zone and spec defaults', () => {
    const f = parse('create', { name: 'Campus', validDays: '7', tz: '1' });
    expect(createBody(f)).toEqual({
      testLinkName: 'Campus',
      testLinkStatus: 'active',
      invitationType: 'open',
      proctoringSettings: { proctoringMode: 'disabled' },
      invitationSchedule: {
        scheduleType: 'validityindays',
        scheduleDetails: { invitationValidityInDays: 7, timeZoneId: 1 },
      },
    });
  });

  it('--start/--end build timebound, and --slotwise slotwise, in UTC seconds', () => {
    const f = parse('create', {
      name: 'x',
      start: '2026-03-01T10:00:00+01:00',
      end: '2026-03-02',
      tz: '4',
      slotwise: true,
    });
    expect(createBody(f).invitationSchedule).toEqual({
      scheduleType: 'slotwise',
      scheduleDetails: { startDateTime: '2026-03-01T09:00:00Z', endDateTime: '2026-03-02T00:00:00Z', timeZoneId: 4 },
    });
    const g = parse('create', { name: 'x', start: '2026-03-01', end: '2026-03-02', tz: '4' });
    expect((createBody(g).invitationSchedule as { scheduleType: string }).scheduleType).toBe('timebound');
  });

  it('normalises stakeholder lists and rejects a bad address naming it', () => {
    expect(
      parse('create', { name: 'x', validDays: '1', tz: '1', stakeholders: ' a@x.com , b@y.org ' }).stakeholders,
    ).toBe('a@x.com,b@y.org');
    const msg = usage(() =>
      parse('create', { name: 'x', validDays: '1', tz: '1', stakeholders: 'a@x.com,not-an-email' }),
    );
    expect(msg).toMatch(/^--stakeholders: .*'not-an-email'/);
  });

  it.each([
    [{ validDays: '7', tz: '1' }, /^--name: is required/],
    [{ name: 'x', tz: '1' }, /^--valid-days: a schedule is required/],
    [{ name: 'x', validDays: '7' }, /^--tz: is required with a schedule/],
    [{ name: 'x', validDays: '7', tz: 'U;TC' }, /^--tz: must be a time zone id or name/],
    [{ name: 'x', validDays: '7', tz: '1.5' }, /^--tz: must be a time zone id or name/],
    [{ name: 'x', validDays: 'a week', tz: '1' }, /^--valid-days: must be a whole number/],
    [{ name: 'x', validDays: '7', start: '1d', end: '2d', tz: '1' }, /^--valid-days: cannot be combined/],
    [{ name: 'x', start: '2026-03-02', end: '2026-03-01', tz: '1' }, /^--end: must be after --start/],
    [{ name: 'x', start: '2026-03-02', tz: '1' }, /^--end: is required with --start/],
    [{ name: 'x', end: '2026-03-02', tz: '1' }, /^--start: is required with --end/],
    [{ name: 'x', start: 'the morrow', end: '2026-03-02', tz: '1' }, /^--start: 'the morrow' is not a time/],
    [{ name: 'x', validDays: '7', tz: '1', type: 'closed' }, /^--type: must be one of email, open/],
    [
      { name: 'x', validDays: '7', tz: '1', proctoring: 'audio' },
      /^--proctoring: must be one of disabled, image, video/,
    ],
    // a bad list stops there: the rules across flags (here: no schedule) are not checked on top of it
    [{ name: 'x', stakeholders: 'not-an-email' }, /^--stakeholders: .*\(got "not-an-email"\)$/],
  ])('rejects %j', (raw, message) => {
    expect(usage(() => parse('create', raw))).toMatch(message);
  });
});

describe('links update merge', () => {
  const merge = (raw: Record<string, unknown>) => mergeBody(current, parse('update', raw));

  it('changes only the flags given and sends the whole object', () => {
    expect(merge({ status: 'inactive' })).toEqual({
      testLinkName: 'Campus',
      testLinkStatus: 'inactive',
      invitationType: 'email',
      isApiLink: false,
      proctoringSettings: { proctoringMode: 'image' },
      invitationSchedule: {
        scheduleType: 'timebound',
        scheduleDetails: { startDateTime: '2026-03-01T09:00:00Z', endDateTime: '2026-03-10T17:00:00Z', timeZoneId: 3 },
      },
    });
  });

  it('keeps the other end and the time zone when only --end changes; --slotwise switches the type', () => {
    expect(merge({ end: '2026-03-20', slotwise: true }).invitationSchedule).toEqual({
      scheduleType: 'slotwise',
      scheduleDetails: { startDateTime: '2026-03-01T09:00:00Z', endDateTime: '2026-03-20T00:00:00Z', timeZoneId: 3 },
    });
  });

  it('--valid-days replaces a window schedule, keeping the time zone', () => {
    expect(merge({ validDays: '14' }).invitationSchedule).toEqual({
      scheduleType: 'validityindays',
      scheduleDetails: { invitationValidityInDays: 14, timeZoneId: 3 },
    });
  });

  it('--tz alone moves the same schedule to another time zone', () => {
    expect(merge({ tz: '9' }).invitationSchedule).toMatchObject({
      scheduleType: 'timebound',
      scheduleDetails: { timeZoneId: 9 },
    });
  });

  it('an --end before the stored start is a usage error naming --end', () => {
    expect(usage(() => merge({ end: '2026-02-01' }))).toMatch(/^--end: must be after the start/);
  });

  it('--start alone on a validityindays link needs --end too', () => {
    const days: TestLink = {
      ...current,
      invitationSchedule: {
        scheduleType: 'validityindays',
        scheduleDetails: { invitationValidityInDays: 7, timeZoneId: 1 },
      },
    };
    expect(usage(() => mergeBody(days, parse('update', { start: '2026-03-01' })))).toMatch(/^--end: required/);
  });

  it("an answer without the link's schedule is named as such, not as a link without one", () => {
    const bare: TestLink = { ...current, invitationSchedule: null as unknown as TestLink['invitationSchedule'] };
    expect(usage(() => mergeBody(bare, parse('update', { end: '2026-09-01' })))).toBe(
      "--tz: the service's answer does not give the link's time zone; give one, e.g. --tz Asia/Kolkata",
    );
    expect(usage(() => mergeBody(bare, parse('update', { end: '2026-09-01', tz: '1' })))).toMatch(
      /^--start: required, because the service's answer gives the link no start time/,
    );
  });

  it('buildSchedule leaves the schedule alone when no schedule flag is given', () => {
    expect(buildSchedule({ name: 'x' } as ResolvedLinkFlags)).toBeUndefined();
  });
});
