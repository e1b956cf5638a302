// The tolerant-reader policy (src/api/read/): one set of rules for every answer.
import { describe, expect, it } from 'vitest';
import { ApiError, UnexpectedAnswerError } from '../../src/api/errors.js';
import { allOf, anObject, anyOf, listOf, someList } from '../../src/api/read/identify.js';
import { parseJsonLossless, unwrapEnvelope } from '../../src/api/read/body.js';
import { canonicalKeys, id, invitationStatus, linkStatus } from '../../src/api/read/policy.js';
import { readAnswer, UnreadableAnswerError } from '../../src/api/read/read.js';
import * as R from '../../src/api/read/v3.js';

const request = { method: 'POST', url: 'http://x.test/v3/tests/1/invite', operation: 'v3.invite' };

describe('field spellings', () => {
  it('reads Status, sectionID, callbackURL, skills onto the spelling the CLI uses', () => {
    expect(
      canonicalKeys({ Status: 'x', sectionID: 1, callbackURL: 'u', skills: [] }, [
        'status',
        'sectionId',
        'callbackUrl',
        'Skills',
      ]),
    ).toEqual({
      status: 'x',
      sectionId: 1,
      callbackUrl: 'u',
      Skills: [],
    });
  });
  it('an exact spelling wins; the other is kept as an extra field', () => {
    expect(canonicalKeys({ status: 'a', Status: 'b' }, ['status'])).toEqual({ status: 'a', Status: 'b' });
  });
});

describe('ids', () => {
  it.each([
    [1001, 1001],
    ['1001', 1001],
    [' 42 ', 42],
    ['9007199254740993123', '9007199254740993123'],
  ])('%j → %j', (input, out) => expect(id.parse(input)).toBe(out));
  it.each([['12a'], [-1], [1.5], [null]])('%j is not an id', (input) =>
    expect(id.safeParse(input).success).toBe(false),
  );
  it('long integers in a JSON text are kept as their digits', () => {
    expect(
      parseJsonLossless('{"a":9007199254740993123,"b":"9007199254740993123","c":1.25e3,"d":"x\\"9999999999999999"}'),
    ).toEqual({
      a: '9007199254740993123',
      b: '9007199254740993123',
      c: 1250,
      d: 'x"9999999999999999',
    });
  });
  it('an empty body is null, a non-JSON body its text', () => {
    expect(parseJsonLossless('')).toBeNull();
    expect(parseJsonLossless('OK')).toBe('OK');
  });
});

describe('enum-like values', () => {
  it.each([
    ['Completed', 'Complete'],
    ['complete', 'Complete'],
    ['inprogress', 'In Progress'],
    ['In progress', 'In Progress'],
    ['cancelled', 'Cancelled'],
    ['Canceled', 'Cancelled'],
    ['TEST LEFT', 'Test Left'],
    ['Something New', 'Something New'],
  ])('%s → %s', (input, out) => expect(invitationStatus.read(input)).toBe(out));
  it('link status Active → active', () => expect(linkStatus.read('Active')).toBe('active'));
});

describe('the envelope', () => {
  it('{result, errors: null} is unwrapped, with or without metadata beside it', () => {
    expect(unwrapEnvelope({ result: { tests: [] }, errors: null })).toEqual({ kind: 'unwrapped', body: { tests: [] } });
    expect(unwrapEnvelope({ Result: [1], Errors: [], requestId: 'r1' })).toEqual({ kind: 'unwrapped', body: [1] });
  });
  it('{result: null, errors: [..]} is the service saying it failed', () => {
    expect(unwrapEnvelope({ result: null, errors: ['bad date'] })).toEqual({ kind: 'errors', errors: ['bad date'] });
  });
  it('a resource that merely has a field named result is not an envelope', () => {
    const body = { result: 'pass', testId: 1 };
    expect(unwrapEnvelope(body)).toEqual({ kind: 'plain', body });
  });
});

describe('reading an answer', () => {
  it('a read that cannot be understood carries the body as received', () => {
    const data = { result: { items: 3 }, errors: null };
    let err: unknown;
    try {
      readAnswer(R.TestsList, { status: 200, data, request }, { kind: 'read', envelope: true });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UnreadableAnswerError);
    expect((err as UnreadableAnswerError).body).toBe(data);
  });

  it('a write keeps what is known where the answer is silent, and warns once per problem', () => {
    const warnings: string[] = [];
    const v = readAnswer(
      R.Cancelled,
      { status: 204, data: null, request },
      {
        kind: 'write',
        envelope: true,
        known: { testInvitationId: 5, status: 'Cancelled' },
        expect: ['testInvitationId'],
        warn: (m) => warnings.push(m),
      },
    );
    expect(v).toEqual({ testInvitationId: 5, status: 'Cancelled' });
    expect(warnings).toEqual([]);
  });

  it('a write answered with an unexpected shape still succeeds, with a warning', () => {
    const warnings: string[] = [];
    const v = readAnswer(
      R.Invitation,
      { status: 201, data: { testInvitationId: 'x-1', testUrl: 7 }, request },
      {
        kind: 'write',
        envelope: true,
        expect: ['testInvitationId', 'testUrl'],
        warn: (m) => warnings.push(m),
      },
    );
    expect(v).toMatchObject({ testInvitationId: 'x-1' });
    expect(warnings.join('\n')).toMatch(
      /accepted POST \/v3\/tests\/1\/invite \(HTTP 201\) but its answer was unexpected/,
    );
  });

  it('a 2xx {result: null, errors} is an ApiError with the messages', () => {
    expect(() =>
      readAnswer(
        R.Invitation,
        { status: 200, data: { result: null, errors: ['no'] }, request },
        { kind: 'write', envelope: true },
      ),
    ).toThrow(ApiError);
  });

  it('the report reads production forms: Status, testId string, Skills null, numeric strings', () => {
    const r = R.Report.parse({
      testInvitationId: '5',
      testId: 292930,
      Status: 'Completed',
      scorePercentage: '70',
      sections: [{ sectionID: '11', Skills: null }],
    });
    expect(r).toMatchObject({
      testInvitationId: 5,
      testId: '292930',
      status: 'Complete',
      scorePercentage: 70,
      sections: [{ sectionId: 11, Skills: null }],
    });
  });
});

describe('the time-zone list (body not public: other names for the same fields)', () => {
  it('reads {data: [...]} with Id / IanaName / Description / Offset in any case', () => {
    const r = R.TimeZones.parse({
      data: [{ Id: '35', IanaName: 'Asia/Kolkata', description: 'Kolkata', OFFSET: '+05:30' }],
    });
    expect(r.timeZones[0]).toMatchObject({
      timeZoneId: 35,
      name: 'Asia/Kolkata',
      displayName: 'Kolkata',
      utcOffset: '+05:30',
    });
  });
  it('keeps the canonical field when both spellings are there', () => {
    const r = R.TimeZones.parse([{ timeZoneId: 1, id: 99, name: 'UTC' }]);
    expect(r.timeZones[0]!.timeZoneId).toBe(1);
  });
});

describe('only the operation’s answer counts (identify)', () => {
  const invite = {
    kind: 'write' as const,
    envelope: true,
    identify: allOf('testInvitationId', 'testUrl'),
    empty: { means: 'the candidate may have been invited', check: 'the same invite again returns it' },
  };
  const fails = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e as Error;
    }
    throw new Error('did not fail');
  };

  it('an invitation needs its id and URL, in any spelling and inside the envelope', () => {
    for (const data of [
      { testInvitationId: 5, testUrl: 'https://t/5' },
      { TestInvitationID: '5', test_url: 'https://t/5' },
      { result: { testInvitationId: 5, testUrl: 'https://t/5' }, errors: null },
    ])
      expect(readAnswer(R.Invitation, { status: 201, data, request }, invite)).toMatchObject({
        testUrl: 'https://t/5',
      });
    for (const data of [{}, { testInvitationId: 5 }, { testInvitationId: 5, testUrl: '' }, ['ok'], 'Invited', null]) {
      const err = fails(() => readAnswer(R.Invitation, { status: 200, data, request }, invite));
      expect(err, JSON.stringify(data)).toBeInstanceOf(UnexpectedAnswerError);
      expect(err.message).toMatch(/answered HTTP 200 with JSON without (testInvitationId and )?testUrl/);
    }
  });

  it('an empty invite answer says what may have happened and how to check', () => {
    const err = fails(() => readAnswer(R.Invitation, { status: 201, data: null, request, empty: true }, invite));
    expect(err).toBeInstanceOf(UnexpectedAnswerError);
    expect(err.message).toMatch(/HTTP 201 with an empty body: the candidate may have been invited/);
    expect((err as UnexpectedAnswerError).hint).toBe('the same invite again returns it');
  });

  it('a cancel may answer nothing (204), or any JSON', () => {
    const cancel = { kind: 'write' as const, envelope: true, empty: true as const, known: { status: 'Cancelled' } };
    expect(readAnswer(R.Cancelled, { status: 204, data: null, request, empty: true }, cancel)).toEqual({
      status: 'Cancelled',
    });
    const data = { result: 'Test invitation cancelled successfully.', errors: null };
    expect(readAnswer(R.Cancelled, { status: 200, data, request }, cancel)).toMatchObject({ status: 'Cancelled' });
  });

  it('a listing needs its list (null is an empty one); a read never succeeds on an empty body', () => {
    const list = { kind: 'read' as const, envelope: true, identify: listOf('tests') };
    expect(readAnswer(R.TestsList, { status: 200, data: [], request }, list).tests).toEqual([]);
    expect(readAnswer(R.TestsList, { status: 200, data: { Tests: null }, request }, list).tests).toEqual([]);
    expect(fails(() => readAnswer(R.TestsList, { status: 200, data: { items: [] }, request }, list)).message).toMatch(
      /JSON without its tests list, not the service's answer/,
    );
    expect(
      fails(() => readAnswer(R.TestsList, { status: 200, data: null, request, empty: true }, list)).message,
    ).toMatch(/with an empty body/);
  });

  it('any of several fields, a list inside anything, an object', () => {
    expect(anyOf('testId', 'testName')({ TESTNAME: 'x' })).toBeUndefined();
    expect(anyOf('testId', 'testName')({ other: 1 })).toBe('any of testId or testName');
    expect(someList({ data: [] })).toBeUndefined();
    expect(someList({ data: 1 })).toBe('a list');
    expect(anObject([])).toBe('an object');
  });
});
