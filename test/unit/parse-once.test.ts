// Parses done once a run (flags, answers) skip the parser zod compiles with `new Function` for
// an object schema (src/util/parse-once.ts); a schema parsed without the option compiles one.
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { readAnswer } from '../../src/api/read/read.js';
import * as R from '../../src/api/read/v3.js';
import { validate } from '../../src/cli/command.js';

const realFunction = globalThis.Function;
afterEach(() => {
  globalThis.Function = realFunction;
});

/** Counts what is compiled with `new Function` from now on. */
function countCompiles(): () => number {
  let n = 0;
  globalThis.Function = new Proxy(realFunction, {
    construct(target, args) {
      n++;
      return Reflect.construct(target, args);
    },
  });
  return () => n;
}

const request = { method: 'POST', url: 'https://api.example.com/v3/tests/1001/invite', operation: 'v3.invite' };

describe('PARSE_ONCE', () => {
  it('flags and answers are parsed without compiling a parser', () => {
    const flags = z.object({ testId: z.string(), email: z.string().optional(), name: z.string().optional() });
    const answer = R.Invitation();
    const compiled = countCompiles();
    expect(validate(flags, { testId: '1001', email: 'a@example.com' })).toEqual({ testId: '1001', email: 'a@example.com' });
    const read = readAnswer(answer, { status: 201, data: { testInvitationId: 5, testUrl: 'https://t.example/5' }, request }, { kind: 'write', envelope: true });
    expect(read).toMatchObject({ testInvitationId: 5, testUrl: 'https://t.example/5' });
    expect(compiled()).toBe(0);
  });

  it('(the count can fail: the same kind of schema parsed without the option compiles one)', () => {
    const flags = z.object({ testId: z.string(), email: z.string().optional() });
    const compiled = countCompiles();
    expect(flags.safeParse({ testId: '1001' }).success).toBe(true);
    expect(compiled()).toBeGreaterThan(0);
  });
});
