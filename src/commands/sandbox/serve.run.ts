// What `assess sandbox serve` does when it runs; its declaration (flags, help, fields) is ./serve.ts.
import { isAbsolute, resolve } from 'node:path';
import { LocalError } from '../../errors.js';
import type { FaultSpec } from '../../sandbox/specs.js';
import { refuseIrregularState } from '../../util/regular-file.js';
import type { InputOfCommand, Run } from '../../cli/command.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import type { Context } from '../../context.js';
import type serve from './serve.js';

type Input = InputOfCommand<typeof serve>;

export const run: Run<typeof serve> = async (ctx, input) => {
  const stateFile = input.state ? (isAbsolute(input.state) ? input.state : resolve(input.state)) : undefined;
  // a FIFO would block the load (SIGTERM included), a device read for ever: exit 2 before anything
  if (input.state) refuseIrregularState(input.state, '--state');
  const sb = await start(ctx, input, stateFile);
  await printListening(ctx, sb, stateFile);
  sayWhatIsInjected(ctx, sb, input);
  ctx.info('Press Ctrl-C to stop.');
  // SIGINT and SIGTERM both abort ctx.signal (src/cli/program.ts).
  await new Promise<void>((done) => ctx.signal.addEventListener('abort', () => done(), { once: true }));
  await sb.close();
  ctx.info('Sandbox stopped; state saved.');
};

async function start(ctx: Context, input: Input, stateFile: string | undefined): Promise<RunningSandbox> {
  const { startSandbox } = await import('../../sandbox/index.js');
  try {
    // --latency is latency= of --faults (which wins when both give one)
    const faults: FaultSpec | undefined =
      input.latency === undefined && !input.faults ? undefined : { latencyMs: input.latency, ...input.faults };
    return await startSandbox({
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
}

async function printListening(ctx: Context, sb: RunningSandbox, stateFile: string | undefined): Promise<void> {
  const { SEED_ACCOUNTS } = await import('../../sandbox/index.js');
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
}

function sayWhatIsInjected(ctx: Context, sb: RunningSandbox, input: Input): void {
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
      `Quirks mode, seed ${input.quirks}: answers vary in form as a real service's do (change with POST ` +
        `/_sandbox/quirks)`,
    );
}
