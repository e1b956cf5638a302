// The settings a profile can hold, with the zod schema that validates `config set` values.
import { z } from 'zod';

export const OUTPUT_FORMATS = ['table', 'tsv', 'json', 'ndjson', 'csv'] as const;

const url = z
  .string()
  .trim()
  .refine((s) => /^https?:\/\//i.test(s) && URL.canParse(s), 'must be an http(s) URL, e.g. https://api.example.com');
const bool = z.enum(['true', 'false']).transform((v) => v === 'true');

/** Config key (as typed by users) → stored property and value schema. */
export const CONFIG_KEYS = {
  'base-url': { prop: 'baseUrl', schema: url, describe: 'v3 base URL' },
  'base-url-v2': { prop: 'baseUrlV2', schema: url, describe: 'v2 base URL (deprecated API)' },
  output: { prop: 'output', schema: z.enum(OUTPUT_FORMATS), describe: 'default output format' },
  timeout: { prop: 'timeout', schema: z.coerce.number().int().min(1).max(600), describe: 'request timeout, seconds' },
  retries: { prop: 'retries', schema: z.coerce.number().int().min(1).max(10), describe: 'attempts per request' },
  concurrency: { prop: 'concurrency', schema: z.coerce.number().int().min(1).max(64), describe: 'bulk concurrency' },
  api: { prop: 'api', schema: z.enum(['v3', 'v2']), describe: 'API version to use' },
  'v2.warn': { prop: 'v2Warn', schema: bool, describe: 'print the v2 deprecation notice' },
} as const;

export type ConfigKey = keyof typeof CONFIG_KEYS;

export const Profile = z.looseObject({
  apiKey: z.string().optional(),
  baseUrl: z.string().optional(),
  baseUrlV2: z.string().optional(),
  output: z.enum(OUTPUT_FORMATS).optional(),
  timeout: z.number().optional(),
  retries: z.number().optional(),
  concurrency: z.number().optional(),
  api: z.enum(['v3', 'v2']).optional(),
  v2Warn: z.boolean().optional(),
});
export type Profile = z.infer<typeof Profile>;

export const ConfigFile = z.looseObject({
  profiles: z.record(z.string(), Profile).default({}),
});
