// `assess sandbox start`: the shared local sandbox. Runs `assess sandbox serve` in the background
// on the embedded sandbox's state file, records it in <config>/sandbox/server.json, and returns
// once it answers. While it runs, every `--sandbox` command uses it (src/cli/context-factory.ts).
import { defineCommand, zx, flag } from '../../cli/command.js';
import { SHARED_FIELDS } from './shared/shared-view.js';
import { rateLimitFlag } from './shared/spec-flag.js';

export default defineCommand({
  name: 'start',
  description: 'Start the shared local sandbox in the background: every --sandbox command uses it, its URLs stay live',
  examples: [
    'assess sandbox start',
    'assess sandbox start --json baseUrl,keys',
    'assess sandbox start --rate-limit 25/s   # 429 past 25 requests a second per key, as a rate-limited service',
    'assess sandbox start && assess --sandbox invite 1001 --email ann@example.com --name "Ann Lee"',
  ],
  flags: {
    port: flag('port to listen on (0 = any free port)', { value: 'n', default: '0' }, () => zx.int(0, 65535, 4010)),
    rateLimit: rateLimitFlag(),
  },
  jsonFields: SHARED_FIELDS,
  handler: () => import('./start.run.js'),
});
