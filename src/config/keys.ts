// The settings a profile can hold: the name users type, the stored property and what it is for
// (config list, get, unset). The value each takes is src/config/key-values.ts (config set); the
// stored form is src/config/profile.ts.

/** Config key (as typed by users) → stored property and description. */
export const CONFIG_KEYS = {
  'base-url': { prop: 'baseUrl', describe: 'v3 base URL' },
  'base-url-v2': { prop: 'baseUrlV2', describe: 'v2 base URL (deprecated API)' },
  output: { prop: 'output', describe: 'default output format' },
  timeout: { prop: 'timeout', describe: 'the most a command waits for the service in all (--timeout), seconds' },
  'try-timeout': { prop: 'tryTimeout', describe: "each request try's limit (--try-timeout), seconds" },
  retries: { prop: 'retries', describe: 'attempts per request' },
  concurrency: { prop: 'concurrency', describe: 'bulk concurrency' },
  'max-answer-mib': { prop: 'maxAnswerMib', describe: 'largest answer read into memory, MiB (PDFs are streamed)' },
  api: { prop: 'api', describe: 'API version to use' },
  'v2.warn': { prop: 'v2Warn', describe: 'print the v2 deprecation notice' },
  // the opt-in for a plain http:// base URL to another machine (the key crosses the network unencrypted)
  'insecure-http': {
    prop: 'insecureHttp',
    describe: 'allow sending the API key over plain http:// to a host that is not this machine',
  },
  tz: { prop: 'tz', describe: 'default --tz (id or name) where a time zone is needed' },
} as const satisfies Record<string, { prop: string; describe: string }>;

export type ConfigKey = keyof typeof CONFIG_KEYS;
