// What makes `callbacks listen` a service to run for months: HTTPS of its own (--tls-cert/--tls-key,
// reloaded on SIGHUP), no plain HTTP on an address others reach unless asked (--insecure-http),
// health, readiness and Prometheus metrics (GET /healthz, /readyz, /metrics), and one JSON line
// per event on stderr (--log-format json) for a log collector.
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import * as z from 'zod/mini';
import { flag } from '../../../cli/command.js';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import type { ForwardLanes } from './forward-lanes.js';
import type { Probes } from './receiver.js';

const file = (example: string) => () =>
  z.optional(z.string().check(z.minLength(1, `must name a file, e.g. ${example}`)));

export const LISTEN_SERVICE_FLAGS = {
  tlsCert: flag(
    'serve HTTPS with this certificate (PEM, the chain after it); reloaded on SIGHUP',
    { value: 'file' },
    file('cert.pem'),
  ),
  tlsKey: flag('the private key of --tls-cert (PEM); reloaded on SIGHUP', { value: 'file' }, file('key.pem')),
  logFormat: flag(
    'stderr as text (default) or one JSON object per line: {"time","level","msg"}',
    { value: 'format' },
    () => z._default(z.enum(['text', 'json']), 'text'),
  ),
};

export interface ServiceInput {
  host: string;
  tlsCert?: string;
  tlsKey?: string;
}

const isLoopback = (host: string) => /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/i.test(host);

/**
 * Exit 2 before binding: half a TLS pair, or plain HTTP where other machines reach it (the global
 * --insecure-http, which allows plain HTTP to another machine for requests, allows it here too).
 */
export function checkExposure(input: ServiceInput, insecureHttp: boolean): void {
  if ((input.tlsCert === undefined) !== (input.tlsKey === undefined))
    throw new UsageError(`--${input.tlsCert ? 'tls-key' : 'tls-cert'}: give --tls-cert and --tls-key together`);
  if (input.tlsCert || isLoopback(input.host) || insecureHttp) return;
  throw new UsageError(
    `--host: ${input.host} is reached from other machines, and plain ` +
      `HTTP would carry the token and the candidates' results in clear`,
    'serve HTTPS (--tls-cert FILE --tls-key FILE), keep --host 127.0.0.1 behind a TLS reverse proxy, or accept it ' +
      'with --insecure-http',
  );
}

/** The PEM pair, read now and again on each reload; a bad pair is exit 2 at start, a warning on reload. */
export async function readTls(ctx: Context, input: ServiceInput): Promise<{ cert: Buffer; key: Buffer } | undefined> {
  if (!input.tlsCert || !input.tlsKey) return undefined;
  const { readFile } = await import('node:fs/promises');
  const { createSecureContext } = await import('node:tls');
  let pair: { cert: Buffer; key: Buffer };
  try {
    pair = { cert: await readFile(input.tlsCert), key: await readFile(input.tlsKey) };
    createSecureContext(pair); // a key that is not the certificate's is refused here, not at the first client
  } catch (err) {
    throw new UsageError(
      `--tls-cert/--tls-key: cannot use ${input.tlsCert} and ${input.tlsKey}: ${(err as Error).message}`,
      'give a PEM certificate and its private key',
    );
  }
  ctx.info(`TLS: ${input.tlsCert} (kill -HUP ${process.pid} reloads it and the key)`);
  return pair;
}

/**
 * The listener's own SIGHUP: reload the certificate (a renewal by certbot, cert-manager…) without
 * stopping. Kept here, inside the listener, so that SIGHUP's meaning elsewhere (stop) is not
 * this command's; returns the function that removes it.
 */
export function reloadOnHangup(
  ctx: Context,
  input: ServiceInput,
  apply: (pair: { cert: Buffer; key: Buffer }) => void,
) {
  const reload = () =>
    void readTls(ctx, input).then(
      (pair) => pair && (apply(pair), ctx.info('TLS certificate reloaded.')),
      (err: unknown) => ctx.warn(`TLS reload failed, the previous certificate stays: ${(err as Error).message}`),
    );
  return ctx.onHangup(reload);
}

/** A context whose info/warn lines are JSON objects, one per line (for --log-format json). */
export function jsonLogContext(ctx: Context, format: 'text' | 'json'): Context {
  if (format === 'text') return ctx;
  const line = (level: string) => (msg: string) =>
    ctx.io.stderr.write(`${JSON.stringify({ time: ctx.now().toISOString(), level, msg })}\n`);
  return Object.create(ctx, { info: { value: line('info') }, warn: { value: line('warn') } }) as Context;
}

/** Counts for /metrics, kept by the listener as requests come. */
export class ListenMetrics {
  received = 0;
  stored = 0;
  duplicates = 0;
  storeFailures = 0;
  storeSeconds = 0;
  readonly refused = new Map<string, number>();
  lastStoreError: string | null = null;

  /** Wraps a store call: counts it, times it, remembers the last failure (for /readyz). */
  timed<A>(store: ((a: A) => Promise<void>) | undefined): ((a: A) => Promise<void>) | undefined {
    if (!store) return undefined;
    return async (a) => {
      this.received++;
      const t0 = performance.now();
      try {
        await store(a);
        this.stored++;
        this.lastStoreError = null;
      } catch (err) {
        this.storeFailures++;
        this.lastStoreError = err instanceof Error ? err.message : String(err);
        throw err;
      } finally {
        this.storeSeconds += (performance.now() - t0) / 1000;
      }
    };
  }

  refuse(status: number): void {
    const reason = REASONS[status] ?? `http_${status}`;
    this.refused.set(reason, (this.refused.get(reason) ?? 0) + 1);
  }

  probes(storePath: string | null, lanes: ForwardLanes | undefined): Probes {
    return {
      ready: () => {
        const store =
          storePath === null ? 'none' : this.lastStoreError === null && !full(storePath) ? 'writable' : 'failing';
        const body = {
          store,
          ...(this.lastStoreError ? { storeError: this.lastStoreError } : {}),
          forward: lanes ? { target: FORWARD_STATE[lanes.breaker], queued: lanes.depth } : null,
        };
        return { ok: store !== 'failing', body };
      },
      metrics: () => this.text(lanes),
    };
  }

  /** The Prometheus text of /metrics: the listener's counts, and the forward queue's with --forward-to. */
  private text(lanes: ForwardLanes | undefined): string {
    const out = [...this.ownMetrics(), ...(lanes ? forwardMetrics(lanes) : [])].flatMap(([name, type, help, lines]) => [
      `# HELP assess_listen_${name} ${help}`,
      `# TYPE assess_listen_${name} ${type}`,
      ...lines,
    ]);
    return `${out.join('\n')}\n`;
  }

  private ownMetrics(): Metric[] {
    const refused = [...this.refused].map(([r, n]) => `assess_listen_refused_total{reason="${r}"} ${n}`);
    return [
      counter('received_total', 'Notifications received (stored or not).', this.received),
      counter('stored_total', 'Notifications committed to the store before their 200.', this.stored),
      counter('duplicates_total', 'Stored notifications seen before (same invitation and status).', this.duplicates),
      [
        'refused_total',
        'counter',
        'Requests refused, by reason.',
        refused.length ? refused : ['assess_listen_refused_total{reason="token"} 0'],
      ],
      [
        'store_seconds',
        'summary',
        'Time from a notification to its commit.',
        [
          `assess_listen_store_seconds_sum ${this.storeSeconds.toFixed(6)}`,
          `assess_listen_store_seconds_count ${this.stored + this.storeFailures}`,
        ],
      ],
    ];
  }
}

/** One metric: its name (after assess_listen_), type, help line and sample lines. */
type Metric = [name: string, type: string, help: string, lines: string[]];

const one = (name: string, v: number) => [`assess_listen_${name} ${v}`];
const counter = (name: string, help: string, v: number): Metric => [name, 'counter', help, one(name, v)];
const gauge = (name: string, help: string, v: number): Metric => [name, 'gauge', help, one(name, v)];

function forwardMetrics(lanes: ForwardLanes): Metric[] {
  return [
    counter('forwarded_total', 'Notifications delivered to --forward-to.', lanes.counts.forwarded),
    counter('retries_total', 'Forward tries that failed and will be retried.', lanes.counts.retries),
    counter('dead_letters_total', 'Notifications whose tries were spent.', lanes.counts.deadLetters),
    gauge('queue_depth', 'Notifications waiting to be forwarded.', lanes.depth),
    gauge('forward_up', '1 while the circuit breaker is closed.', lanes.breaker === 'closed' ? 1 : 0),
  ];
}

const REASONS: Record<number, string> = {
  400: 'bad_body',
  401: 'token',
  404: 'path',
  405: 'method',
  413: 'too_large',
  503: 'store_failed',
  508: 'loop',
};

const FORWARD_STATE = { closed: 'up', open: 'down', 'half-open': 'probing' } as const;

function full(path: string): boolean {
  try {
    return statfsSync(dirname(path)).bavail === 0;
  } catch {
    return false;
  }
}
