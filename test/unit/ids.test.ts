// The id rule of machine output: numbers while exact (≤ 2^53 - 1), strings of digits beyond.
import { describe, expect, it } from 'vitest';
import { idValue, withIdRule } from '../../src/output/ids.js';

describe('the id rule', () => {
  it('digits of an exact id become a number; beyond 2^53 - 1 they stay a string', () => {
    expect(idValue('1001')).toBe(1001);
    expect(idValue(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(idValue('9007199254740993')).toBe('9007199254740993');
    expect(idValue('9007199254740993123')).toBe('9007199254740993123');
  });

  it('only id fields, at any depth, and lists of ids; other strings and leading zeros are kept', () => {
    const got = withIdRule({
      testId: '1001',
      testInvitationId: 900001,
      testName: '1001',
      accessKey: '123',
      CandidateEmailId: 'a@example.com',
      code: '007',
      sections: [{ sectionID: '11', sectionName: '7' }],
      testinvitationIds: ['1', '2'],
      id: '0042',
    });
    expect(got).toEqual({
      testId: 1001,
      testInvitationId: 900001,
      testName: '1001',
      accessKey: '123',
      CandidateEmailId: 'a@example.com',
      code: '007',
      sections: [{ sectionID: 11, sectionName: '7' }],
      testinvitationIds: [1, 2],
      id: '0042',
    });
  });

  it('leaves an object without string ids as it is (no copy)', () => {
    const row = { testId: 1001, testName: 'Java' };
    expect(withIdRule(row)).toBe(row);
  });
});
