// links update --api v2: the spec's v2 update takes the whole create body (left-out fields fall
// back to create's defaults), so a field the service's answer did not give is never filled with
// a default: it is read again, or the update is refused.
import { describe, expect, it } from 'vitest';
import type { V2TestLink } from '../../src/api/read/v2.js';
import { v2AnswerIncomplete, v2BodyOf, v2FillFrom, v2MergeBody } from '../../src/commands/links/shared/v2.js';
import { OutcomeError, UsageError } from '../../src/errors.js';

const full: V2TestLink = {
  testLinkId: 5003,
  testId: 1001,
  testLinkName: 'Evening slots',
  testLinkAccessKey: 'tl-5003',
  accessTime: 2,
  startDateTime: '2026-11-27T00:00:00',
  endDateTime: '2026-12-11T00:00:00',
  timeZoneId: 1,
  inviteCandidateOnly: 1,
  imageProctoring: 1,
  emailToStakeholder: 'lead@acme.example',
  testLinkStatus: 1,
};
const without = (...keys: Array<keyof V2TestLink>): V2TestLink => {
  const l = { ...full };
  for (const k of keys) delete l[k];
  return l;
};
const thrown = (fn: () => unknown): Error => {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
};

describe('v2 links update body', () => {
  it('a rename sends every other field as the answer gave it', () => {
    const body = v2MergeBody(full, { name: 'Renamed' });
    expect(body).toEqual({ ...v2BodyOf(full), testLinkName: 'Renamed' });
    expect(body).toMatchObject({
      inviteCandidateOnly: 1,
      imageProctoring: 1,
      accessTime: 2,
      startDateTime: full.startDateTime,
    });
  });

  it.each([['inviteCandidateOnly'], ['imageProctoring'], ['testLinkStatus'], ['timeZoneId'], ['accessTime']] as const)(
    'an answer without %s is never filled with a default: the update is refused (exit 1), naming it',
    (k) => {
      for (const link of [without(k), { ...full, [k]: null }]) {
        expect(v2BodyOf(link)).not.toHaveProperty(k);
        const err = thrown(() => v2MergeBody(link, { name: 'Renamed' }));
        expect(err).toBeInstanceOf(OutcomeError);
        expect(err.message).toContain(`left out ${k}`);
      }
    },
  );

  it('the flag that gives a left-out field lets the update go', () => {
    expect(v2MergeBody(without('inviteCandidateOnly'), { name: 'R', type: 'email' })).toMatchObject({
      inviteCandidateOnly: 1,
      imageProctoring: 1,
    });
  });

  it('dates left out of a dated link are not "an anytime link without dates" (no usage error for a rename)', () => {
    const err = thrown(() => v2MergeBody(without('startDateTime', 'endDateTime'), { name: 'R' }));
    expect(err).not.toBeInstanceOf(UsageError);
    expect(err.message).toContain('left out startDateTime, endDateTime');
    // a real anytime link: dates null are its value, and new dates still need both
    const anytime = { ...full, accessTime: 0, startDateTime: null, endDateTime: null };
    expect(v2MergeBody(anytime, { name: 'R' })).toMatchObject({
      accessTime: 0,
      startDateTime: null,
      endDateTime: null,
    });
    expect(thrown(() => v2MergeBody(anytime, { start: '2026-12-01T00:00:00Z' }))).toBeInstanceOf(UsageError);
  });

  it('a second read fills in what the first left out', () => {
    const first = without('inviteCandidateOnly', 'imageProctoring');
    expect(v2AnswerIncomplete(first)).toBe(true);
    expect(v2AnswerIncomplete(full)).toBe(false);
    const filled = v2FillFrom(first, without('testLinkName'));
    expect(v2AnswerIncomplete(filled)).toBe(false);
    expect(v2MergeBody(filled, { name: 'R' })).toEqual({ ...v2BodyOf(full), testLinkName: 'R' });
    // a null stakeholder list is read again, and kept if the second read says null too
    expect(v2AnswerIncomplete({ ...full, emailToStakeholder: null })).toBe(true);
    expect(v2FillFrom({ ...full, emailToStakeholder: null }, full).emailToStakeholder).toBe(full.emailToStakeholder);
    expect(v2MergeBody({ ...full, emailToStakeholder: null }, { name: 'R' }).emailToStakeholder).toBeNull();
  });
});
