// The settings a profile can hold, with the zod schema that validates `config set` values (only
// the config commands load it; the stored form is src/config/profile.ts).
import * as z from 'zod/mini';
import { tzArg } from '../util/time-zone-arg.js';
import { OUTPUT_FORMATS } from '../output/format.js';

const url = z.string().check(
  z.trim(),
  z.refine((s) => /^https?:\/\//i.test(s) && URL.canParse(s), 'must be an http(s) URL, e.g. https://api.example.com'),
);
const bool = z.pipe(
  z.enum(['true', 'false'], { message: 'must be true or false' }),
  z.transform((v) => v === 'true'),
);
const whole = (min: number, max: number, example: number) =>
  z.coerce
    .number({ message: `must be a whole number from ${min} to ${max}, e.g. ${example}` })
    .check(
      z.int(`must be a whole number from ${min} to ${max}, e.g. ${example}`),
      z.minimum(min, `must be a whole number from ${min} to ${max}, e.g. ${example}`),
      z.maximum(max, `must be a whole number from ${min} to ${max}, e.g. ${example}`),
    );

/** Config key (as typed by users) → stored property and value schema. */
export const CONFIG_KEYS = {
  'base-url': { prop: 'baseUrl', schema: url, describe: 'v3 base URL' },
  'base-url-v2': { prop: 'baseUrlV2', schema: url, describe: 'v2 base URL (deprecated API)' },
  output: {
    prop: 'output',
    schema: z.enum(OUTPUT_FORMATS, { message: `must be one of ${OUTPUT_FORMATS.join(', ')}` }),
    describe: 'default output format',
  },
  timeout: { prop: 'timeout', schema: whole(1, 600, 30), describe: 'request timeout, seconds' },
  retries: { prop: 'retries', schema: whole(1, 10, 4), describe: 'attempts per request' },
  concurrency: { prop: 'concurrency', schema: whole(1, 64, 8), describe: 'bulk concurrency' },
  'max-answer-mib': { prop: 'maxAnswerMib', schema: whole(1, 16384, 64), describe: 'largest answer read into memory, MiB (PDFs are streamed)' },
  api: { prop: 'api', schema: z.enum(['v3', 'v2'], { message: 'must be v3 or v2' }), describe: 'API version to use' },
  'v2.warn': { prop: 'v2Warn', schema: bool, describe: 'print the v2 deprecation notice' },
  // the opt-in for a plain http:// base URL to another machine (the key crosses the network unencrypted)
  'insecure-http': { prop: 'insecureHttp', schema: bool, describe: 'allow sending the API key over plain http:// to a host that is not this machine' },
  // kept as typed (a name is resolved through the service's list when a command sends it)
  tz: { prop: 'tz', schema: z.pipe(tzArg(), z.transform(String)), describe: 'default --tz (id or name) where a time zone is needed' },
} as const satisfies Record<string, { prop: string; schema: z.ZodMiniType; describe: string }>;

export type ConfigKey = keyof typeof CONFIG_KEYS;
