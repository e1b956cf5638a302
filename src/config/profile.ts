// A profile as stored in the config file, and the file's schema (src/config/store.ts reads it).
// The settings `config set` takes, with their value schemas, are src/config/keys.ts.
import * as z from 'zod';

export const OUTPUT_FORMATS = ['table', 'tsv', 'json', 'ndjson', 'csv'] as const;

/** A profile as stored. */
export const profileSchema = z.looseObject({
  apiKey: z.string().optional(),
  baseUrl: z.string().optional(),
  baseUrlV2: z.string().optional(),
  output: z.enum(OUTPUT_FORMATS).optional(),
  timeout: z.number().optional(),
  retries: z.number().optional(),
  concurrency: z.number().optional(),
  maxAnswerMib: z.number().optional(),
  api: z.enum(['v3', 'v2']).optional(),
  v2Warn: z.boolean().optional(),
  insecureHttp: z.boolean().optional(),
  tz: z.string().optional(),
});
export type Profile = z.infer<typeof profileSchema>;

export const configFileSchema = z.looseObject({
  profiles: z.record(z.string(), profileSchema).default({}),
});
