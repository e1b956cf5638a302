// A profile as stored in the config file, and the file's schema (src/config/store.ts reads it).
// The settings `config set` takes, with their value schemas, are src/config/keys.ts.
// It is imported when there is a file to read (a run without one never builds these schemas).
import * as z from 'zod/mini';
import { OUTPUT_FORMATS } from '../output/format.js';

/** A profile as stored. */
export const profileSchema = z.looseObject({
  apiKey: z.optional(z.string()),
  baseUrl: z.optional(z.string()),
  baseUrlV2: z.optional(z.string()),
  output: z.optional(z.enum(OUTPUT_FORMATS)),
  timeout: z.optional(z.number()),
  tryTimeout: z.optional(z.number()),
  retries: z.optional(z.number()),
  concurrency: z.optional(z.number()),
  maxAnswerMib: z.optional(z.number()),
  api: z.optional(z.enum(['v3', 'v2'])),
  v2Warn: z.optional(z.boolean()),
  insecureHttp: z.optional(z.boolean()),
  tz: z.optional(z.string()),
});
export type Profile = z.infer<typeof profileSchema>;

export const configFileSchema = z.looseObject({
  profiles: z._default(z.record(z.string(), profileSchema), {}),
});
