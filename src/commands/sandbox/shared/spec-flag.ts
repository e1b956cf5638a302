// Flags whose value is a small spec the sandbox parses (faults, rate limit, delivery faults):
// parsed while the flags are checked, so a bad one exits 2 with an example before anything starts.
import * as z from 'zod/mini';
import { flag } from '../../../cli/command.js';
import { FaultSpecError } from '../../../sandbox/fault-spec.js';
import { parseRateLimit } from '../../../sandbox/rate-limit.js';

export const specFlag = <T>(parse: (text: string) => T, example: string) =>
  z.pipe(
    z.string(),
    // an issue is pushed as classic zod's addIssue did (a zod/mini transform has none)
    z.transform((v, c) => {
      try {
        return parse(v);
      } catch (err) {
        if (!(err instanceof FaultSpecError)) throw err;
        c.issues.push({ code: 'custom', message: `${err.message}; e.g. ${example}`, input: v });
        return z.NEVER;
      }
    }),
  );

/** `--rate-limit 25/s[,burst=N][,retry-after]`, for `sandbox serve` and `sandbox start`. */
export const rateLimitFlag = () =>
  flag('a token bucket per API key: 25/s[,burst=N][,retry-after]; past it, 429 (see docs/sandbox.md)', { value: 'spec' }, () =>
    z.optional(specFlag(parseRateLimit, '--rate-limit 25/s,burst=5')),
  );
