// A confirmation that cannot be asked names why: --no-input on a terminal once read "there is no
// terminal to ask on".
import { describe, expect, it } from 'vitest';
import { requireConfirmable } from '../../src/commands/shared/confirm.js';
import type { Context } from '../../src/context.js';
import { UsageError } from '../../src/errors.js';

const ctx = (tty: boolean, env: Record<string, string> = {}) =>
  ({
    io: { stdinIsTTY: tty, stderrIsTTY: tty },
    env,
    globals: { yes: false, interactive: false },
  }) as unknown as Context;
const refusal = (c: Context) => {
  try {
    requireConfirmable(c, 'cancelling invitation 900001');
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error('expected a UsageError');
};

describe('requireConfirmable', () => {
  it('on a terminal: --no-input, or CI, is the reason', () => {
    expect(refusal(ctx(true))).toBe('--yes: cancelling invitation 900001 needs confirmation and --no-input was given');
    expect(refusal(ctx(true, { CI: 'true' }))).toBe(
      '--yes: cancelling invitation 900001 needs confirmation and CI is set (no questions in CI)',
    );
  });
  it('without a terminal: the missing terminal is', () => {
    expect(refusal(ctx(false))).toBe(
      '--yes: cancelling invitation 900001 needs confirmation and there is no terminal to ask on',
    );
  });
  it('--yes, or a terminal to ask on: nothing refused', () => {
    expect(() =>
      requireConfirmable({ ...ctx(false), globals: { yes: true, interactive: false } } as unknown as Context, 'x'),
    ).not.toThrow();
    expect(() =>
      requireConfirmable({ ...ctx(true), globals: { yes: false, interactive: true } } as unknown as Context, 'x'),
    ).not.toThrow();
  });
});
