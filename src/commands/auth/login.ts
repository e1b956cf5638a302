// `assess auth login`: an API key (and base URLs) stored in a profile, checked first (./login.run.ts).
import * as z from 'zod/mini';
import { defineCommand, zx, flag } from '../../cli/command.js';

export default defineCommand({
  name: 'login',
  description: 'Store an API key (and base URLs) in a profile; prompts on a terminal, masked',
  examples: [
    'assess auth login',
    'printf %s "$ASSESS_KEY" | assess auth login --key-stdin --base-url http://127.0.0.1:4010   # e.g. a local sandbox',
    'assess auth login --profile staging --api-key-file ./key.txt',
  ],
  flags: {
    baseUrl: flag('v3 base URL to store with the key', { value: 'url' }, () => z.optional(zx.url())),
    baseUrlV2: flag('v2 base URL to store with the key', { value: 'url' }, () => z.optional(zx.url())),
    // commander's `--no-verify` makes this false; without it the key is checked before it is saved
    verify: flag('save the key without checking it against the service', { long: 'no-verify' }, () =>
      z._default(z.boolean(), true),
    ),
    skipVerify: flag('', { hidden: true }, () => z.optional(z.boolean())), // the older spelling of --no-verify
  },
  handler: () => import('./login.run.js'),
});
