// Flags whose value is a small spec the sandbox parses (faults, rate limit, delivery faults):
// parsed while the flags are checked, so a bad one exits 2 with an example before anything starts.
import * as z from 'zod/mini';
import { flag } from '../../../cli/command.js';
import { FaultSpecError, parseRateLimit } from '../../../sandbox/specs.js';
import { readAs } from '../../../util/read-as.js';
import { manualRef } from '../../../util/manuals.js';

export const specFlag = <T>(parse: (text: string) => T, example: string) =>
  readAs((text, refuse) => {
    try {
      return parse(text);
    } catch (err) {
      if (!(err instanceof FaultSpecError)) throw err;
      return refuse(`${err.message}; e.g. ${example}`);
    }
  });

/** `--rate-limit 25/s[,burst=N][,retry-after]`, for `sandbox serve` and `sandbox start`. */
export const rateLimitFlag = () =>
  flag(
    `a token bucket per API key: 25/s[,burst=N][,retry-after]; past it, 429 (see ${manualRef('sandbox.md')})`,
    { value: 'spec' },
    () => z.optional(specFlag(parseRateLimit, '--rate-limit 25/s,burst=5')),
  );
