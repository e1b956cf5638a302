// HTTP transport on undici: base URL, auth header, JSON bodies, deadlines (each try's:
// try-deadline.ts, and the command's --timeout: wait-budget.ts), the run's keep-alive pool (with its
// proxies: keep-alive.ts), retries (the one policy: retry.ts `decide`) and a redacted debug log. What
// a request and an answer are: transport-spec.ts; how a body is decoded and capped: answer-cap.ts;
// what a 2xx body must be to be the service's JSON: service-json.ts.
//
// The retry loop is ours rather than undici's RetryAgent because the decision depends on the
// operation (is it safe to repeat after it may have reached the server?) and because a 429 must
// slow down every request of a bulk pool through one shared gate.
import type { Dispatcher } from 'undici';
import { refusePlainHttp } from './plain-http.js';
import { DEFAULT_MAX_ANSWER_BYTES, readAnswerText } from './answer-cap.js';
import {
  AnswerTooLargeError,
  ApiError,
  NetworkError,
  parseErrorBody,
  ResponseShapeError,
  type RequestInfo,
} from './errors.js';
import { RequestLog } from './request-log.js';
import { Secrets } from './redact.js';
import { BackoffGate, decide, parseRetryAfter, type RetryOperation } from './retry.js';
import type { Gate } from './pace.js';
import { header, serviceJson } from './service-json.js';
import { outOfTime, tryDeadline, type Deadline, type DeadlineLimits } from './try-deadline.js';
import { loadedUndici, loadUndici, type Undici } from './undici.js';
import { errorCode, isLocalFailure, localFailure, NO_WASM } from './local-failure.js';
import { WaitBudget } from './wait-budget.js';
import { UsageError } from '../errors.js';

export {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_TRY_TIMEOUT_MS,
  USER_AGENT,
  type RawResponse,
  type RequestSpec,
  type SendGuard,
  type TransportOptions,
} from './transport-spec.js';
import {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_TRY_TIMEOUT_MS,
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

/** A 2xx answer read as the service's JSON; `empty`: no body at all (a 204, or 0 bytes). */
export interface JsonAnswer {
  status: number;
  data: unknown;
  request: RequestInfo;
  empty: boolean;
}

export class Transport {
  readonly gate: Gate;
  /** The command's --timeout, shared by every transport of its connection. */
  readonly budget: WaitBudget;
  /** Targets of paths without a query, kept: a bulk run asks the same path for every row. */
  private readonly targets = new Map<string, Target>();
  private readonly headers: { bare: Record<string, string>; json: Record<string, string> };
  private readonly log: RequestLog;
  private readonly limits: DeadlineLimits;
  private readonly o: Required<
    Omit<
      TransportOptions,
      | 'debug'
      | 'dispatcher'
      | 'pool'
      | 'signal'
      | 'gate'
      | 'insecureHttp'
      | 'guard'
      | 'budget'
      | 'baseUrlFrom'
      | 'secrets'
    >
  > &
    Pick<TransportOptions, 'dispatcher' | 'pool' | 'signal' | 'guard' | 'baseUrlFrom'>;

  constructor(opts: TransportOptions) {
    // the last line of defence (the CLI refuses such a base URL where it is set, naming where)
    refusePlainHttp(opts.baseUrl, 'base URL', opts.insecureHttp === true);
    this.gate = opts.gate ?? new BackoffGate();
    this.budget = opts.budget ?? new WaitBudget(undefined);
    this.o = {
      tryTimeoutMs: DEFAULT_TRY_TIMEOUT_MS,
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
    // the run's (which holds the key unless it is a sandbox's public one), else the key's own
    const secrets = opts.secrets ?? new Secrets().add(this.o.apiKey);
    this.log = new RequestLog(opts.debug, secrets, this.o.authHeader);
    this.limits = { tryTimeoutMs: this.o.tryTimeoutMs, budget: this.budget, signal: this.o.signal, log: this.log };
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
    const target = this.target(spec.path, spec.query);
    const info: RequestInfo = { method: spec.method, url: target.shown, operation: spec.operation };
    if (this.o.baseUrlFrom) info.from = this.o.baseUrlFrom;
    const payload = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const call: Call = {
      spec,
      target,
      info,
      payload,
      headers: payload === undefined ? this.headers.bare : this.headers.json,
      retry: this.retryOf(spec),
      maybeApplied: earlierMaybeApplied,
      throttled: 0,
    };
    // undici parses HTTP in WebAssembly, which `node --jitless` lacks: loading it then fails outside
    // any request (an unhandled rejection in Node's own copy), so say it here, once, as what it is
    if ((globalThis as { WebAssembly?: unknown }).WebAssembly === undefined)
      throw localFailure(spec.method, info.url, NO_WASM, this.scrub);
    const undici = loadedUndici() ?? (await loadUndici());
    for (let attempt = 1; ; attempt++) {
      const step = await this.attempt(call, attempt, undici);
      if (step.done) return step.done;
      if (step.free) attempt--;
      await this.pause(call, step.delay, attempt);
    }
  }

  /** One try: the answer to return, or how long to wait before the next. */
  private async attempt(
    call: Call,
    attempt: number,
    undici: Undici,
  ): Promise<{ done?: RawResponse; delay: number; free?: boolean }> {
    const { spec, info } = call;
    const slot = this.gate.reserve();
    if (slot.waitMs > 0) await this.pause(call, slot.waitMs, attempt);
    const started = Date.now();
    const deadline = tryDeadline(spec, info, attempt, this.limits);
    this.log.request(spec.method, call.target.href, call.headers, call.payload, attempt);
    let res: Dispatcher.ResponseData;
    try {
      // the dispatcher's own request(): undici.request(url) would parse the URL again
      res = await (this.o.dispatcher ?? this.o.pool?.(undici) ?? undici.getGlobalDispatcher()).request({
        origin: call.target.origin,
        path: call.target.path,
        method: spec.method,
        headers: call.headers,
        body: call.payload,
        headersTimeout: deadline.ms,
        bodyTimeout: deadline.ms,
        signal: deadline.signal,
      });
    } catch (err) {
      return { delay: this.failed(call, attempt, err, deadline, started) };
    }
    deadline.follow(res.body);
    const retryAfterMs = parseRetryAfter(header(res.headers, 'retry-after'), Date.now());
    this.gate.answered(slot.at, res.statusCode === 429, retryAfterMs !== undefined);
    this.log.response(res.statusCode, Date.now() - started, res.headers);
    const outcome = { kind: 'status', status: res.statusCode, retryAfterMs } as const;
    const d = decide(outcome, this.attemptOf(call, attempt), call.retry, this.o.random);
    if (!d.again) {
      const { maybeApplied } = call;
      const done = { status: res.statusCode, headers: res.headers, body: res.body, request: info, attempts: attempt };
      return { done: { ...done, maybeApplied }, delay: 0 };
    }
    if (d.free) call.throttled++;
    if (d.maybeApplied) call.maybeApplied = true;
    await res.body.dump().catch(() => undefined);
    if (d.holdAll) this.gate.hold(d.delayMs);
    this.log.line(
      `retrying ${spec.method} in ${d.delayMs} ms (HTTP ${res.statusCode}, attempt ${attempt}/${this.o.maxAttempts})`,
    );
    return { delay: d.delayMs, free: d.free };
  }

  /** What the policy is told of a request: its repeat class, the caller's word, the pace. */
  private retryOf(spec: RequestSpec): RetryOperation {
    return { repeat: spec.repeat, emails: spec.emails, maxAttempts: this.o.maxAttempts, paced: this.gate.adaptive };
  }

  private attemptOf(call: Call, n: number) {
    return { n, throttled: call.throttled, leftMs: this.budget.left() };
  }

  /** A try that got no answer: the delay before the next, or the NetworkError that ends it. */
  private failed(call: Call, attempt: number, err: unknown, deadline: Deadline, started: number): number {
    const { spec, info } = call;
    deadline.clear();
    if (this.o.signal?.aborted || err instanceof UsageError) throw err; // a usage error: localhost that is not loopback
    if (!deadline.expired && isLocalFailure(err)) throw localFailure(spec.method, info.url, err, this.scrub);
    const code = deadline.expired ? 'UND_ERR_HEADERS_TIMEOUT' : errorCode(err);
    this.log.line(
      `<-- ${code ?? 'error'} after ${Date.now() - started} ms: ${this.scrub(String((err as Error).message))}`,
    );
    const d = decide({ kind: 'error', code }, this.attemptOf(call, attempt), call.retry, this.o.random);
    if (!d.again) {
      const timedOut = /TIMEOUT/.test(code ?? '');
      const what = timedOut ? deadline.said : `failed (${code ?? 'network error'})`;
      throw new NetworkError(`${spec.method} ${info.url} ${what}`, info, code, attempt, timedOut);
    }
    if (d.maybeApplied) call.maybeApplied = true;
    this.log.line(`retrying ${spec.method} in ${d.delayMs} ms (${code}, attempt ${attempt}/${this.o.maxAttempts})`);
    return d.delayMs;
  }

  /** Waits `ms` (a backoff, the pace), never past the command's --timeout. */
  private async pause(call: Call, ms: number, attempt: number): Promise<void> {
    if (ms <= 0) return;
    if (ms >= this.budget.left()) throw outOfTime(call.info, attempt, this.budget);
    await this.o.sleep(ms, this.o.signal);
  }

  /** Sends and reads the service's JSON; non-2xx becomes an ApiError with the body in its documented shape. */
  async json(spec: RequestSpec): Promise<JsonAnswer> {
    const { res, text, data } = await this.sendAndRead(spec);
    if (spec.onAnswered) await spec.onAnswered();
    this.log.answer(text);
    if (res.status < 200 || res.status > 299) {
      throw new ApiError(res.status, parseErrorBody(this.scrub(text)), res.request, res.attempts, res.maybeApplied);
    }
    return { status: res.status, data: data ?? null, request: res.request, empty: !text.trim() };
  }

  /**
   * send() retries until the headers arrive; an answer that breaks off after them (connection
   * cut mid-body, a body shorter than its framing, JSON that ends early) is sent again here when
   * the request is safe to repeat, else a NetworkError (exit 6).
   */
  private async sendAndRead(spec: RequestSpec): Promise<{ res: RawResponse; text: string; data?: unknown }> {
    let maybeApplied = false;
    const retry = this.retryOf(spec);
    for (let read = 1; ; read++) {
      const res = await this.send(spec, maybeApplied);
      try {
        const text = await this.readText(res);
        const ok = res.status >= 200 && res.status <= 299;
        return { res, text, data: ok ? serviceJson(res, text) : undefined };
      } catch (err) {
        if (this.o.signal?.aborted || err instanceof AnswerTooLargeError || err instanceof ResponseShapeError)
          throw err;
        // The whole answer did not arrive within the deadline: a slow server, not a broken one.
        if (err instanceof NetworkError && err.timedOut) throw err;
        if (isLocalFailure(err)) throw localFailure(spec.method, res.request.url, err, this.scrub);
        const code = errorCode(err);
        this.log.line(`<-- answer broke off: ${code ?? 'error'}: ${this.scrub(String((err as Error).message))}`);
        maybeApplied = true;
        const d = decide({ kind: 'cut', code }, { n: read, leftMs: this.budget.left() }, retry, this.o.random);
        if (!d.again)
          throw err instanceof NetworkError
            ? err
            : new NetworkError(
                `${spec.method} ${res.request.url}: the answer broke off (${code ?? 'network error'})`,
                res.request,
                code,
                res.attempts,
              );
        await this.o.sleep(d.delayMs, this.o.signal);
      }
    }
  }

  /** A whole answer as text, decoded, within the cap (maxAnswerBytes). */
  readText(res: RawResponse): Promise<string> {
    return readAnswerText(res, this.o.maxAnswerBytes);
  }

  /** Replaces every secret of the run wherever it could appear (a key pasted into a URL, an echoing server). */
  readonly scrub = (text: string): string => this.log.scrub(text);
}

/** What one request carries through its tries. */
interface Call {
  spec: RequestSpec;
  target: Target;
  info: RequestInfo;
  payload: string | undefined;
  headers: Record<string, string>;
  retry: RetryOperation;
  /** An earlier try may have been carried out (its answer lost). */
  maybeApplied: boolean;
  /** Paced 429s met so far (they use up no attempt). */
  throttled: number;
}
