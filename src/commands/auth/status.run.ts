// `assess auth status`: sends one small request to check the key, and prints where it came from,
// masked, and whether the service accepted it (exit 3 when missing or refused).
import { ApiError } from '../../api/errors.js';
import type { Run } from '../../cli/command.js';
import { requireKey } from '../../config/credentials.js';
import { refusedKeyHint } from '../../config/key-origin.js';
import { maskKey, maskUrlCredentials } from '../../api/redact.js';
import { AuthError } from '../../errors.js';
import { Printer } from '../../output/printer.js';
import type status from './status.js';
import { FIELDS } from './status.js';

export const run: Run<typeof status> = async (ctx) => {
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
};
