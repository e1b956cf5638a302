import { defineCommand } from '../../cli/command.js';
import { fieldsOf } from '../../cli/json-fields.js';
import { requireKey } from '../../config/credentials.js';
import { maskKey, maskUrlCredentials } from '../../api/redact.js';
import { Printer, type Column } from '../../output/printer.js';

const SOURCES = {
  'key-file': 'key file (--api-key-file)',
  stdin: 'standard input (--key-stdin)',
  env: 'environment (ASSESS_API_KEY)',
  profile: 'profile',
  sandbox: 'embedded sandbox',
} as const;

interface Status {
  profile: string;
  baseUrl: string;
  keySource: keyof typeof SOURCES | undefined;
  key: string;
  valid: boolean;
}

const FIELDS: Column<Status>[] = [
  { key: 'profile', header: 'Profile' },
  { key: 'baseUrl', header: 'Base URL' },
  { key: 'keySource', header: 'Key from', value: (r) => (r.keySource ? SOURCES[r.keySource] : undefined) },
  { key: 'key', header: 'Key' },
  { key: 'valid', header: 'Accepted', value: (r) => (r.valid ? 'yes' : 'no') },
];

export default defineCommand({
  name: 'status',
  description: 'Check that the key is present and accepted (exit 3 when missing or refused)',
  examples: ['assess auth status', 'ASSESS_API_KEY="$(cat key.txt)" assess auth status --json'],

  // auth status sends a request (to check the key) before it prints: check --json fields first.
  jsonFields: fieldsOf(FIELDS),
  async run(ctx) {
    const conn = await ctx.connection();
    const key = requireKey(conn);
    const client = await ctx.api();
    await client.listTests({ pageNo: 1, pageSize: 1 });
    await new Printer(ctx).object(
      {
        profile: conn.profile,
        baseUrl: maskUrlCredentials(conn.baseUrl), // a password in the URL is a credential too
        keySource: conn.keySource,
        key: maskKey(key),
        valid: true,
      },
      { fields: FIELDS },
    );
  },
});
