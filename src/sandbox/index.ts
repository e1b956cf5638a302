// Public entry of the sandbox: start a stateful local emulator of the v3 service.
//   const sb = await startSandbox({ port: 0 });   // 127.0.0.1, in-memory state
//   fetch(`${sb.baseUrl}/v3/tests`, { headers: { 'X-API-KEY': sb.keys[0] } })
// See docs/sandbox.md for the endpoints, seed data, control API and persistence.
import { Deliverer, type DeliveryOptions } from './delivery.js';
import type { CallbackQueueEntry } from './model.js';
import { DeliveryFaults, KEPT_DELIVERY_FAULTS } from './delivery-faults.js';
import { parseDeliveryFaultSpec, type DeliveryFaultSpec } from './delivery-fault-spec.js';
import { FaultInjector, KEPT_FAULTS } from './faults.js';
import { parseFaultSpec, type FaultSpec } from './fault-spec.js';
import { Quirks } from './quirks.js';
import { RateLimiter, type RateLimitSpec } from './rate-limit.js';
import { SEED_KEYS } from './seed.js';
import { buildServer } from './server.js';
import { inState } from './kept.js';
import { openState } from './state-file.js';
import type { Store } from './store.js';

export { SEED_KEYS, SEED_ACCOUNTS } from './seed.js';
export { FaultSpecError, parseFaultSpec, type FaultSpec } from './fault-spec.js';
export type { FaultCounters } from './faults.js';
export { parseRateLimit, type RateLimitSpec, type RateLimitView } from './rate-limit.js';
export type { CallbackQueueEntry, Delivery, DeliveryAttempt, OutboxEntry } from './model.js';
export type { DeliveryOptions } from './delivery.js';
export { parseDeliveryFaultSpec, type DeliveryFaultSpec, type DeliveryFaultCounters } from './delivery-fault-spec.js';

export interface RunningSandbox {
  /** `http://127.0.0.1:PORT` — no trailing slash, no API version: clients append the operation's path. */
  baseUrl: string;
  /** Same origin for now (the v2 routes live under their own prefix, API_PREFIX.v2). */
  baseUrlV2: string;
  /** The seed accounts' API keys: [account 1 (Acme), account 2 (Globex)]. */
  keys: string[];
  port: number;
  /**
   * Resolves true once no callback delivery is in flight (delivered or failed), or false after
   * `timeoutMs`. Deliveries never block the request that queued them; this is how to wait.
   * `queuedOnly`: only for those queued since this sandbox started, not those resumed from state.
   */
  idle(timeoutMs: number, queuedOnly?: boolean): Promise<boolean>;
  /** Callback deliveries scheduled and not yet finished (`queuedOnly`: as for idle). */
  deliveriesInFlight(queuedOnly?: boolean): number;
  /** The injected faults: `view()` the spec and counters, `set(spec | null)` to change them. */
  faults: Pick<FaultInjector, 'set' | 'view'>;
  /** Injected callback delivery faults (drop, 5xx, hang): `view()`, `set(spec | null)`. */
  deliveryFaults: Pick<DeliveryFaults, 'set' | 'view'>;
  /** The rate limit (rate-limit.ts): `view()` the spec and counters, `set(spec | null)`. */
  rateLimit: Pick<RateLimiter, 'set' | 'view'>;
  /** Quirks mode (quirks.ts): `set(seed | null)`, `view()`. */
  quirks: Pick<Quirks, 'set' | 'view'>;
  /** Stops listening and closes the state (unfinished deliveries stay pending, free for the next sandbox). */
  close(): Promise<void>;
}

export interface SandboxOptions {
  port?: number;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /**
   * Keep the state in this SQLite file (made, with the seed data, when missing); without it, in
   * memory only. Several sandboxes and `--sandbox` commands may use one file at once.
   */
  stateFile?: string;
  /** Where an earlier assess kept this state (JSON): named once by onNotice when the new file is made. */
  formerStateFile?: string;
  /** Told of things worth one line to the user (an earlier assess's state left unread). */
  onNotice?: (line: string) => void;
  /** ASSESS_BUSY_TIMEOUT (seconds: how long to wait for another process's write) is read from here. */
  env?: Record<string, string | undefined>;
  /** Print one line per API request to stderr. */
  logRequests?: boolean;
  /**
   * Injected faults: a spec text (`"5xx=0.1,429=0.05,reset=0.05,latency=5ms..50ms,seed=42"`)
   * or object (`{ latencyMs: 5 }`); changeable at run time via /_sandbox/faults (faults.ts).
   * Kept in the state: without this option, the state's faults hold. A bad text throws FaultSpecError.
   */
  faults?: FaultSpec | string;
  /**
   * A token bucket per API key on service requests: `"25/s,burst=5,retry-after"` or an object;
   * changeable at run time via /_sandbox/rate-limit. A bad text throws FaultSpecError.
   */
  rateLimit?: RateLimitSpec | string | null;
  /** The rate limit's clock in ms (default performance.now): a test drives the bucket with it. */
  rateLimitClock?: () => number;
  /** Quirks mode: answers vary as a real service's do, deterministically for this seed (quirks.ts). */
  quirks?: number | null;
  /** Called for each completion notification queued (the sandbox also delivers it). */
  onCallbackQueued?: (entry: CallbackQueueEntry) => void;
  /** Callback delivery: per-try timeout (default 5 s), tries (5), parallel deliveries (8). */
  delivery?: DeliveryOptions;
  /** Callback delivery faults: `"drop=0.1,5xx=0.05,hang=0.02,seed=42"` (delivery-faults.ts); kept as faults are. */
  deliveryFaults?: DeliveryFaultSpec | string;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = opts.host ?? '127.0.0.1';
  // first: a bad spec throws before anything starts
  const faultSpec = typeof opts.faults === 'string' ? parseFaultSpec(opts.faults) : opts.faults;
  const deliverySpec =
    typeof opts.deliveryFaults === 'string' ? parseDeliveryFaultSpec(opts.deliveryFaults) : opts.deliveryFaults;
  const rateLimit = new RateLimiter(opts.rateLimit, opts.rateLimitClock);
  const store = openState({
    file: opts.stateFile,
    formerFile: opts.formerStateFile,
    env: opts.env,
    onNotice: opts.onNotice,
  });
  try {
    const faults = new FaultInjector(faultSpec, inState(store, 'faults', KEPT_FAULTS));
    const deliveryFaults = new DeliveryFaults(deliverySpec, inState(store, 'delivery-faults', KEPT_DELIVERY_FAULTS));
    store.commitNow();
    return await start(opts, host, store, { faults, deliveryFaults, rateLimit });
  } catch (err) {
    store.close();
    throw err;
  }
}

async function start(
  opts: SandboxOptions,
  host: string,
  store: Store,
  {
    faults,
    deliveryFaults,
    rateLimit,
  }: { faults: FaultInjector; deliveryFaults: DeliveryFaults; rateLimit: RateLimiter },
): Promise<RunningSandbox> {
  const deliverer = new Deliverer(store, opts.delivery, deliveryFaults);
  store.onCallbackQueued = (entry) => {
    deliverer.enqueue(entry);
    opts.onCallbackQueued?.(entry);
  };

  const quirks = new Quirks(opts.quirks ?? null);
  const app = buildServer(store, { logRequests: opts.logRequests, faults, deliveryFaults, quirks, rateLimit });
  try {
    await app.listen({ port: opts.port ?? 0, host });
  } catch (err) {
    await deliverer.close();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 0);
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host;
  const baseUrl = `http://${urlHost}:${port}`;
  store.origin = baseUrl;
  deliverer.resumePending(); // left pending by a sandbox that stopped (or was killed) on this state

  let closing: Promise<void> | null = null;
  return {
    baseUrl,
    baseUrlV2: baseUrl,
    keys: [...SEED_KEYS],
    port,
    idle: (timeoutMs, queuedOnly) => deliverer.idle(timeoutMs, queuedOnly),
    deliveriesInFlight: (queuedOnly) => deliverer.inFlight(queuedOnly),
    faults,
    deliveryFaults,
    rateLimit,
    quirks,
    close: () =>
      (closing ??= (async () => {
        await app.close();
        await deliverer.close();
        store.close();
      })()),
  };
}
