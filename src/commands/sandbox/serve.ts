import * as z from 'zod/mini';
import { defineCommand, zx, flag } from '../../cli/command.js';
import { parseDeliveryFaultSpec, parseFaultSpec, parseLatency } from '../../sandbox/specs.js';
import { rateLimitFlag, specFlag } from './shared/spec-flag.js';
import { readAs } from '../../util/read-as.js';
import { manualRef } from '../../util/manuals.js';

export default defineCommand({
  name: 'serve',
  description: 'Serve the sandbox on loopback until interrupted; prints the base URL and the seed keys',
  examples: [
    'assess sandbox serve --port 4010 --state ./sandbox.db',
    'assess sandbox serve --port 0 --json   # one line: {"baseUrl":…,"baseUrlV2":…,"keys":[…]}',
    'assess sandbox serve --faults "5xx=0.1,429=0.05,reset=0.05,latency=5ms..50ms,seed=42"',
    'assess sandbox serve --rate-limit 25/s,burst=5   # 429 past ' +
      '25 requests a second per key (no Retry-After, as the vendor)',
    "assess sandbox serve --quirks 7   # answers vary as a real service's do (production forms, ids as strings, " +
      'envelopes…)',
  ],
  flags: {
    port: flag('port to listen on (0 = any free port)', { value: 'n', default: '4010' }, () => zx.int(0, 65535, 4010)),
    host: flag('address to bind (loopback unless you say otherwise)', { value: 'addr', default: '127.0.0.1' }, () =>
      zx.host(),
    ),
    state: flag(
      'keep state in this SQLite file (survives restarts; other sandboxes and --sandbox commands may share it)',
      { value: 'file' },
      () => z.optional(z.string().check(z.minLength(1, 'must name a file, e.g. --state ./sandbox.db'))),
    ),
    logRequests: flag('print one line per API request on stderr', () => z.optional(z.boolean())),
    latency: flag(
      'answer each API request this long after it arrives, e.g. 5ms or 2-10ms (benchmarks)',
      { value: 'ms' },
      () =>
        z.optional(
          readAs((text, refuse) => {
            const l = parseLatency(text);
            return typeof l === 'string' ? refuse(l) : l;
          }),
        ),
    ),
    faults: flag(
      `inject faults into API requests, e.g. 5xx=0.1,429=0.05,reset=0.05,latency=5ms..50ms,after=0.5,seed=42 (see ` +
        `${manualRef('sandbox.md')})`,
      { value: 'spec' },
      () => z.optional(specFlag(parseFaultSpec, '--faults 5xx=0.1,429=0.05,reset=0.05,seed=42')),
    ),
    rateLimit: rateLimitFlag(),
    deliveryFaults: flag(
      `fail callback deliveries: drop=0.1,5xx=0.05,hang=0.02,seed=42 (see ${manualRef('sandbox.md')})`,
      { value: 'spec' },
      () => z.optional(specFlag(parseDeliveryFaultSpec, '--delivery-faults drop=0.1,seed=42')),
    ),
    quirks: flag(
      `vary each answer's form as a real service does, deterministically for this seed (see ` +
        `${manualRef('sandbox.md')})`,
      { value: 'seed' },
      () => z.optional(zx.int(0, 2 ** 31 - 1, 7)),
    ),
  },
  handler: () => import('./serve.run.js'),
});
