// The value each setting takes (src/config/keys.ts names them): `config set` validates with these
// schemas, and completion offers the values of the settings that take a fixed set.
import * as z from 'zod/mini';
import { httpUrl } from '../util/url-text.js';
import { tzArg } from '../util/time-zone-arg.js';
import { OUTPUT_FORMATS } from '../output/format.js';
import type { ConfigKey } from './keys.js';
import { TIMEOUT_RULE, timeoutSeconds } from './timeout.js';

const url = httpUrl('https://api.example.com');
const bool = z.pipe(
  z.enum(['true', 'false'], { message: 'must be true or false' }),
  z.transform((v) => v === 'true'),
);
// decimal digits only, as flags take them (src/cli/zx.ts): Number() alone would also take '1e1',
// '0x10', '1.0' and '' (as 0)
const whole = (min: number, max: number, example: number) => {
  const message = `must be a whole number from ${min} to ${max}, e.g. ${example}`;
  return z.pipe(
    z.string().check(z.regex(/^\s*\d{1,16}\s*$/, message)),
    z.coerce.number<string>().check(z.minimum(min, message), z.maximum(max, message)),
  );
};

const seconds = () =>
  z.pipe(
    z.string().check(z.refine((t) => timeoutSeconds(t) !== undefined, `must be ${TIMEOUT_RULE}, e.g. 30`)),
    z.transform((t) => timeoutSeconds(t)!),
  );

/** Config key → the schema of the value `config set` takes (what it stores is the parsed value). */
export const CONFIG_VALUES = {
  'base-url': url,
  'base-url-v2': url,
  output: z.enum(OUTPUT_FORMATS, { message: `must be one of ${OUTPUT_FORMATS.join(', ')}` }),
  timeout: seconds(),
  'try-timeout': seconds(),
  retries: whole(1, 10, 4),
  concurrency: whole(1, 64, 8),
  'max-answer-mib': whole(1, 16384, 64),
  api: z.enum(['v3', 'v2'], { message: 'must be v3 or v2' }),
  'v2.warn': bool,
  'insecure-http': bool,
  // kept as typed (a name is resolved through the service's list when a command sends it)
  tz: z.pipe(tzArg(), z.transform(String)),
} as const satisfies Record<ConfigKey, z.ZodMiniType>;
