import { ApiError } from '../../api/errors.js';
import { defineCommand } from '../../cli/command.js';
import { fieldsOf } from '../../cli/json-fields.js';
import { requireKey } from '../../config/credentials.js';
import { refusedKeyHint } from '../../config/key-origin.js';
import { maskKey, maskUrlCredentials } from '../../api/redact.js';
import { AuthError } from '../../errors.js';
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
    let refused: ApiError | undefined;
    try {
      await client.listTests({ pageNo: 1, pageSize: 1 });
    } catch (err) {
      // a refused key is this command's answer, printed for scripts like an accepted one; any
      // other failure says nothing about the key
      if (!(err instanceof ApiError) || err.kind !== 'auth') throw err;
      refused = err;
    }
    await new Printer(ctx).object(
      {
        profile: conn.profile,
        baseUrl: maskUrlCredentials(conn.baseUrl), // a password in the URL is a credential too
        keySource: conn.keySource,
        key: maskKey(key),
        valid: !refused,
      },
      { fields: FIELDS },
    );
    if (refused) {
      const said = refused.messages.length ? `: ${refused.messages.join('; ')}` : '';
      throw new AuthError(
        `the service refused the key (HTTP ${refused.status}${said})`,
        conn.keySource
          ? refusedKeyHint({ source: conn.keySource, profile: conn.profile, file: ctx.globals.apiKeyFile })
          : "store a key with 'assess auth login'",
      );
    }
  },
});
