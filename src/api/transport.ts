// HTTP transport on undici: base URL, auth header, JSON bodies, timeouts, the run's keep-alive
// pool (with its proxies: keep-alive.ts), retries (policy in retry.ts) and a redacted debug log.
// What a request and an answer are: transport-spec.ts.
//
// The retry loop is ours rather than undici's RetryAgent because the decision depends on the
// operation (is it safe to repeat after it may have reached the server?) and because a 429 must
// slow down every request of a bulk pool through one shared gate.
import type { Dispatcher } from 'undici';
import { refusePlainHttp } from '../config/base-url.js';
import { DEFAULT_MAX_ANSWER_BYTES, readAnswerText } from './answer-cap.js';
import { AnswerTooLargeError, ApiError, NetworkError, parseErrorBody, type RequestInfo } from './errors.js';
import { RequestLog } from './request-log.js';
import type { Gate } from './pace.js';
import {
  BackoffGate,
  nothingProcessed,
  parseRetryAfter,
  retryDelayMs,
  shouldRetry,
  wasSent,
  type Outcome,
} from './retry.js';
import { parseJsonLossless } from './read/body.js';
import { loadedUndici, loadUndici } from './undici.js';
import { errorCode, isLocalFailure, localFailure, NO_WASM } from './local-failure.js';

export {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_TIMEOUT_MS,
  USER_AGENT,
  type RawResponse,
  type RequestSpec,
  type SendGuard,
  type TransportOptions,
} from './transport-spec.js';
import {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_TIMEOUT_MS,
  USER_AGENT,
  type RawResponse,
  type RequestSpec,
  type TransportOptions,
} from './transport-spec.js';

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (ms <= 0) return resolve();
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason ?? new Error('aborted'));
      },
      { once: true },
    );
  });

/** Where a request goes: its URL, the URL as shown (key scrubbed), and undici's origin and path. */
interface Target {
  href: string;
  shown: string;
  origin: string;
  path: string;
}

/** 429s a paced request may meet besides its attempts (each one slows the pace). */
const PACED_429_RETRIES = 20;

export class Transport {
  readonly gate: Gate;
  /** Targets of paths without a query, kept: a bulk run asks the same path for every row. */
  private readonly targets = new Map<string, Target>();
  private readonly headers: { bare: Record<string, string>; json: Record<string, string> };
  private readonly log: RequestLog;
  private readonly o: Required<
    Omit<TransportOptions, 'debug' | 'dispatcher' | 'pool' | 'signal' | 'gate' | 'insecureHttp' | 'guard'>
  > &
    Pick<TransportOptions, 'dispatcher' | 'pool' | 'signal' | 'guard'>;

  constructor(opts: TransportOptions) {
    // the last line of defence (the CLI refuses such a base URL where it is set, naming where)
    refusePlainHttp(opts.baseUrl, 'base URL', opts.insecureHttp === true);
    this.gate = opts.gate ?? new BackoffGate();
    this.o = {
      timeoutMs: DEFAULT_TIMEOUT_MS,
      maxAttempts: DEFAULT_MAX_ATTEMPTS,
      sleep: defaultSleep,
      random: Math.random,
      ...opts,
      maxAnswerBytes: opts.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
      baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    };
    // built once: undici copies a request's headers and never changes the object given
    const bare = {
      [this.o.authHeader]: this.o.apiKey,
      'user-agent': USER_AGENT,
      accept: 'application/json, application/pdf;q=0.9, */*;q=0.5',
    };
    this.headers = { bare, json: { ...bare, 'content-type': 'application/json; charset=utf-8' } };
    this.log = new RequestLog(opts.debug, this.o.apiKey, this.o.authHeader);
  }

  private target(path: string, query?: RequestSpec['query']): Target {
    const params = query ? Object.entries(query).filter(([, v]) => v !== undefined) : [];
    const kept = params.length === 0 ? this.targets.get(path) : undefined;
    if (kept) return kept;
    const u = new URL(this.o.baseUrl + path);
    for (const [k, v] of params) u.searchParams.set(k, String(v));
    const href = u.toString();
    const t = { href, shown: this.scrub(href), origin: u.origin, path: u.pathname + u.search };
    if (params.length === 0) {
      if (this.targets.size >= 64) this.targets.clear();
      this.targets.set(path, t);
    }
    return t;
  }

  /** Sends with retries; resolves for any status (callers decide), rejects with NetworkError. */
  async send(spec: RequestSpec, earlierMaybeApplied = false): Promise<RawResponse> {
    this.o.guard?.(spec);
    let maybeApplied = earlierMaybeApplied;
    const target = this.target(spec.path, spec.query);
    const url = target.href;
    const info: RequestInfo = { method: spec.method, url: target.shown, operation: spec.operation };
    const payload = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const headers = payload === undefined ? this.headers.bare : this.headers.json;
    // A request that makes the service e-mail a candidate is repeated only when the service surely
    // did nothing (it never left this machine, or a 429 refused it): a retry after a reset, a
    // timeout or a 5xx could send a second e-mail.
    const idempotent = safeToRepeat(spec);

    // undici parses HTTP in WebAssembly, which `node --jitless` lacks: loading it then fails outside
    // any request (an unhandled rejection in Node's own copy), so say it here, once, as what it is
    if ((globalThis as { WebAssembly?: unknown }).WebAssembly === undefined)
      throw localFailure(spec.method, info.url, NO_WASM, this.scrub);
    const undici = loadedUndici() ?? (await loadUndici());
    let throttled = 0;
    for (let attempt = 1; ; attempt++) {
      const slot = this.gate.reserve();
      if (slot.waitMs > 0) await this.o.sleep(slot.waitMs, this.o.signal);
      const started = Date.now();
      this.log.request(spec.method, url, headers, payload, attempt);
      let outcome: Outcome;
      const deadline = this.deadline(spec, info, attempt);
      try {
        // the dispatcher's own request(): undici.request(url) would parse the URL again
        const res = await (this.o.dispatcher ?? this.o.pool?.(undici) ?? undici.getGlobalDispatcher()).request({
          origin: target.origin,
          path: target.path,
          method: spec.method,
          headers,
          body: payload,
          headersTimeout: this.o.timeoutMs,
          bodyTimeout: this.o.timeoutMs,
          signal: deadline.signal,
        });
        deadline.follow(res.body);
        const retryAfter = header(res.headers, 'retry-after');
        this.gate.answered(slot.at, res.statusCode === 429, parseRetryAfter(retryAfter, Date.now()) !== undefined);
        outcome = { kind: 'status', status: res.statusCode, retryAfter };
        this.log.response(res.statusCode, Date.now() - started, res.headers);
        // paced (a bulk run): a 429 slowed the pace, and the retry takes its next slot; a Retry-After still holds everyone
        const paced =
          res.statusCode === 429 && this.gate.adaptive && parseRetryAfter(retryAfter, Date.now()) === undefined;
        // …and does not use up an attempt: a run the machine stalled sends a burst when it wakes,
        // and a row must not fail for meeting the limit a few times while the pace settles (a 429
        // did nothing, so this holds for requests that e-mail too)
        const throttledFree = paced && nothingProcessed(outcome) && throttled < PACED_429_RETRIES;
        if (
          !throttledFree &&
          !shouldRetry(outcome, {
            idempotent,
            attempt,
            maxAttempts: this.o.maxAttempts,
            read: spec.method === 'GET' || spec.readOnly === true,
            sameOnRepeat: spec.sameOnRepeat,
          })
        ) {
          return {
            status: res.statusCode,
            headers: res.headers,
            body: res.body,
            request: info,
            attempts: attempt,
            maybeApplied,
          };
        }
        if (throttledFree) {
          throttled++;
          attempt--;
        }
        if (res.statusCode >= 500) maybeApplied = true;
        await res.body.dump().catch(() => undefined);
        const delay = paced ? 0 : retryDelayMs(attempt, retryAfter, Date.now(), this.o.random);
        if (res.statusCode === 429 && !paced) this.gate.hold(delay);
        this.log.line(
          `retrying ${spec.method} in ${delay} ms (HTTP ${res.statusCode}, attempt ${attempt}/${this.o.maxAttempts})`,
        );
        await this.o.sleep(delay, this.o.signal);
      } catch (err) {
        deadline.clear();
        if (this.o.signal?.aborted) throw err;
        if (!deadline.expired && isLocalFailure(err)) throw localFailure(spec.method, info.url, err, this.scrub);
        const code = deadline.expired ? 'UND_ERR_HEADERS_TIMEOUT' : errorCode(err);
        outcome = { kind: 'error', code, sent: wasSent(code) };
        if (outcome.sent) maybeApplied = true;
        this.log.line(
          `<-- ${code ?? 'error'} after ${Date.now() - started} ms: ${this.scrub(String((err as Error).message))}`,
        );
        if (!shouldRetry(outcome, { idempotent, attempt, maxAttempts: this.o.maxAttempts })) {
          const timedOut = /TIMEOUT/.test(code ?? '');
          const what = timedOut
            ? `timed out after ${this.o.timeoutMs / 1000} s`
            : `failed (${code ?? 'network error'})`;
          throw new NetworkError(`${spec.method} ${info.url} ${what}`, info, code, attempt, timedOut);
        }
        const delay = retryDelayMs(attempt, undefined, Date.now(), this.o.random);
        this.log.line(`retrying ${spec.method} in ${delay} ms (${code}, attempt ${attempt}/${this.o.maxAttempts})`);
        await this.o.sleep(delay, this.o.signal);
      }
    }
  }

  /** Sends and parses JSON; non-2xx becomes an ApiError with the body in its documented shape. */
  async json(spec: RequestSpec): Promise<{ status: number; data: unknown; request: RequestInfo }> {
    const { res, text } = await this.sendAndRead(spec);
    if (spec.onAnswered) await spec.onAnswered();
    this.log.answer(text);
    if (res.status < 200 || res.status > 299) {
      throw new ApiError(res.status, parseErrorBody(this.scrub(text)), res.request, res.attempts, res.maybeApplied);
    }
    // 204 or an empty body is null; a body that is not JSON is kept as its text.
    return { status: res.status, data: parseJsonLossless(text), request: res.request };
  }

  /**
   * send() retries until the headers arrive; an answer that breaks off after them (connection
   * cut mid-body) is sent again here when the request is safe to repeat, else a NetworkError.
   */
  private async sendAndRead(spec: RequestSpec): Promise<{ res: RawResponse; text: string }> {
    let maybeApplied = false;
    for (let read = 1; ; read++) {
      const res = await this.send(spec, maybeApplied);
      try {
        return { res, text: await this.readText(res) };
      } catch (err) {
        if (this.o.signal?.aborted || err instanceof AnswerTooLargeError) throw err; // too large: once is enough
        // The whole answer did not arrive within --timeout: a slow server, not a broken one.
        if (err instanceof NetworkError && err.timedOut) throw err;
        if (isLocalFailure(err)) throw localFailure(spec.method, res.request.url, err, this.scrub);
        const code = errorCode(err);
        this.log.line(`<-- answer broke off: ${code ?? 'error'}: ${this.scrub(String((err as Error).message))}`);
        maybeApplied = true;
        if (!safeToRepeat(spec) || read >= this.o.maxAttempts)
          throw new NetworkError(
            `${spec.method} ${res.request.url}: the answer broke off (${code ?? 'network error'})`,
            res.request,
            code,
            res.attempts,
          );
        await this.o.sleep(retryDelayMs(read, undefined, Date.now(), this.o.random), this.o.signal);
      }
    }
  }

  /** A whole answer as text, within the cap (maxAnswerBytes). */
  readText(res: RawResponse): Promise<string> {
    return readAnswerText(res, this.o.maxAnswerBytes);
  }

  /**
   * --timeout is a deadline for the whole answer of one attempt (headers and body), not an idle
   * timeout between bytes: a server dripping one byte a second must not hold the CLI forever.
   * The deadline aborts with a NetworkError (timedOut) as the reason, so it stays apart from
   * the user's Ctrl-C (this.o.signal) and surfaces as exit 6 naming the request.
   */
  private deadline(spec: RequestSpec, info: RequestInfo, attempt: number) {
    const own = new AbortController();
    const secs = this.o.timeoutMs / 1000;
    const state = { expired: false };
    let body: { destroy(err?: Error): unknown; destroyed?: boolean } | undefined;
    const timer = setTimeout(() => {
      // made only when it fires: an Error captures a stack, ~35 µs per request of a bulk run
      const reason = new NetworkError(
        `${spec.method} ${info.url} timed out after ${secs} s (no complete answer)`,
        info,
        'ASSESS_DEADLINE',
        attempt,
        true,
      );
      state.expired = true;
      this.log.line(`<-- deadline of ${secs} s passed (attempt ${attempt})`);
      if (body && !body.destroyed) body.destroy(reason);
      own.abort(reason);
    }, this.o.timeoutMs);
    timer.unref();
    return {
      // a bulk run's client has no Ctrl-C signal to join (it finishes the requests under way)
      signal: this.o.signal ? AbortSignal.any([this.o.signal, own.signal]) : own.signal,
      get expired() {
        return state.expired;
      },
      /** The deadline covers the body too; it ends when the body is read or dropped. */
      follow(b: NodeJS.ReadableStream & { destroy(err?: Error): unknown; destroyed?: boolean }) {
        body = b;
        (b as NodeJS.EventEmitter).once('close', () => clearTimeout(timer));
      },
      clear: () => clearTimeout(timer),
    };
  }

  /** Replaces the key wherever it could appear (a key pasted into a URL, an echoing server). */
  readonly scrub = (text: string): string => this.log.scrub(text);
}

/** Whether the request may be sent again after it may have reached the service. */
function safeToRepeat(spec: RequestSpec): boolean {
  return spec.idempotent && !sendsEmail(spec.body);
}

function sendsEmail(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    String((body as Record<string, unknown>).sendEmail).toLowerCase() === 'yes'
  );
}

function header(h: Record<string, string | string[] | undefined>, name: string): string | null {
  const v = h[name];
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
}
