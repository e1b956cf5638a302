// The sandbox reads its stored documents through a check of their kind: a row that is not one of
// its table's records fails where it is read, naming the table.
import { describe, expect, it } from 'vitest';
import { readRecord } from '../../src/sandbox/stored.js';

describe('stored records', () => {
  it('a record with its id is handed on as stored', () => {
    expect(readRecord('links', '{"testLinkId":5001,"testId":1001}')).toEqual({ testLinkId: 5001, testId: 1001 });
  });

  it.each([
    ['an object without its id', '{"testId":1001}', /links table holds a row that is not one of its records/],
    ['text that is not JSON', '{"testLinkId":', /links table holds a row that is not one of its records \(not JSON\)/],
    ['a list', '[1]', /links table/],
  ])('%s is an error naming the table', (_what, doc, message) => {
    expect(() => readRecord('links', doc)).toThrow(message);
  });
});
