// config set: one setting of the profile, checked and stored (./set.run.ts).
import * as z from 'zod/mini';
import { defineCommand, arg } from '../../cli/command.js';
import { CONFIG_KEYS } from '../../config/keys.js';
import { schemaValues } from '../../cli/schema-values.js';

/** For completion: the values of the settings that take a fixed set (their schemas load only for it). */
async function settableValues(): Promise<Record<string, readonly string[]>> {
  const { CONFIG_VALUES } = await import('../../config/key-values.js');
  return Object.fromEntries(
    Object.entries(CONFIG_VALUES).flatMap(([key, schema]) => {
      const values = schemaValues(schema);
      return values ? [[key, values]] : [];
    }),
  );
}

export default defineCommand({
  name: 'set',
  args: {
    key: arg(() => z.string().register(z.globalRegistry, { completion: Object.keys(CONFIG_KEYS) })),
    value: arg(() =>
      z.string().register(z.globalRegistry, {
        completion: { after: 'key', values: settableValues },
      }),
    ),
  },
  description: 'Change one setting of the profile (use `auth login` for the API key)',
  examples: [
    'assess config set base-url https://api.example.com',
    'assess config set output json',
    'assess config set timeout 60 --profile staging',
    'assess config set v2.warn false',
    'assess config set tz Asia/Kolkata                  # default ' +
      '--tz for reattempt, links create, invite --start/--end',
  ],
  // the key and value are checked by the handler (api-key is refused with advice); completion
  // offers what is settable, and the values of the settings that take a fixed set
  handler: () => import('./set.run.js'),
});
