import { isAbsolute, resolve } from 'node:path';
import * as z from 'zod/mini';
import { defineCommand, zx, flag } from '../../cli/command.js';
import { LocalError, UsageError } from '../../errors.js';
import {
  FaultSpecError,
  parseDeliveryFaultSpec,
  parseFaultSpec,
  parseLatency,
  type FaultSpec,
} from '../../sandbox/specs.js';
import { rateLimitFlag, specFlag } from './shared/spec-flag.js';
import { readAs } from '../../util/read-as.js';
import { manualRef } from '../../util/manuals.js';
import { refuseIrregularState } from '../../util/regular-file.js';

export default defineCommand({
  name: 'serve',
  description: 'Serve the sandbox on loopback until interrupted; prints the base URL and the seed keys',
  examples: [
    'assess sandbox serve --port 4010 --state ./sandbox.db',
    'assess sandbox serve --port 0 --json   # one line: {"baseUrl":…,"baseUrlV2":…,"keys":[…]}',
    'assess sandbox serve --faults "5xx=0.1,429=0.05,reset=0.05,latency=5ms..50ms,seed=42"',
    'assess sandbox serve --rate-limit 25/s,burst=5   # 429 past 25 requests a second per key (no Retry-After, as the vendor)',
    "assess sandbox serve --quirks 7   # answers vary as a real service's do (production forms, ids as strings, envelopes…)",
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
      `inject faults into API requests, e.g. 5xx=0.1,429=0.05,reset=0.05,latency=5ms..50ms,after=0.5,seed=42 (see ${manualRef('sandbox.md')})`,
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
      `vary each answer's form as a real service does, deterministically for this seed (see ${manualRef('sandbox.md')})`,
      { value: 'seed' },
      () => z.optional(zx.int(0, 2 ** 31 - 1, 7)),
    ),
  },
  async run(ctx, input) {
    const { startSandbox, SEED_ACCOUNTS } = await import('../../sandbox/index.js');
    const stateFile = input.state ? (isAbsolute(input.state) ? input.state : resolve(input.state)) : undefined;
    // a FIFO would block the load (SIGTERM included), a device read for ever: exit 2 before anything
    if (input.state) refuseIrregularState(input.state, '--state');
    let sb;
    try {
      // --latency is latency= of --faults (which wins when both give one)
      const faults: FaultSpec | undefined =
        input.latency === undefined && !input.faults ? undefined : { latencyMs: input.latency, ...input.faults };
      sb = await startSandbox({
        port: input.port,
        host: input.host,
        stateFile,
        logRequests: input.logRequests,
        faults,
        deliveryFaults: input.deliveryFaults,
        rateLimit: input.rateLimit,
        quirks: input.quirks,
        env: ctx.env,
        onNotice: (line) => ctx.warn(line),
      });
    } catch (err) {
      // a state file that cannot be used is a UsageError naming it, the cause and the fix (exit 2)
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE')
        throw new LocalError(`port ${input.port} is in use`, 'pick another with --port, or --port 0 for any free port');
      throw err;
    }
    const info = { baseUrl: sb.baseUrl, baseUrlV2: sb.baseUrlV2, keys: sb.keys };
    if (ctx.globals.output === 'json' || ctx.globals.output === 'ndjson') {
      ctx.io.stdout.write(`${JSON.stringify(info)}\n`);
    } else {
      ctx.io.stdout.write(
        [
          `Sandbox listening on ${sb.baseUrl}`,
          `  v3 base URL  ${sb.baseUrl}`,
          `  v2 base URL  ${sb.baseUrlV2}`,
          // which account each key opens (account 1 owns tests 1001-1004 and the seeded attempts)
          ...sb.keys.map(
            (k, i) => `  key ${i + 1}        ${k}   (account ${i + 1}: ${SEED_ACCOUNTS[i]?.name ?? 'unknown'})`,
          ),
          `  state        ${stateFile ?? '(memory only)'}`,
          `Try: ASSESS_BASE_URL=${sb.baseUrl} ASSESS_API_KEY=${sb.keys[0]} assess tests list`,
          '',
        ].join('\n'),
      );
    }
    const injected = sb.faults.view().spec;
    if (injected) ctx.info(`Injecting faults: ${injected} (change or clear them with 'assess sandbox faults')`);
    const limit = sb.rateLimit.view().spec;
    if (limit) ctx.info(`Rate limit: ${limit} per API key (counters and changes at ${sb.baseUrl}/_sandbox/rate-limit)`);
    const failing = sb.deliveryFaults.view().spec;
    if (failing)
      ctx.info(
        `Failing callback deliveries: ${failing} (change or clear them at ${sb.baseUrl}/_sandbox/delivery-faults)`,
      );
    if (input.quirks !== undefined)
      ctx.info(
        `Quirks mode, seed ${input.quirks}: answers vary in form as a real service's do (change with POST /_sandbox/quirks)`,
      );
    ctx.info('Press Ctrl-C to stop.');
    // SIGINT and SIGTERM both abort ctx.signal (src/cli/program.ts).
    await new Promise<void>((done) => ctx.signal.addEventListener('abort', () => done(), { once: true }));
    await sb.close();
    ctx.info('Sandbox stopped; state saved.');
  },
});
