// What a request is and what the transport (transport.ts) takes and gives back: the request's
// spec (with its operation's repeat class and the caller's word on e-mail), the transport's options and
// the raw answer. Apart from the transport so that the many modules that only describe requests
// read these without the retry loop.
import type { Dispatcher } from 'undici';
import { VERSION } from '../version.js';
import type { DispatcherSource } from './keep-alive.js';
import type { RequestInfo } from './errors.js';
import type { Repeat } from './operations/types.js';
import type { Gate } from './pace.js';
import type { Secrets } from './redact.js';
import type { WaitBudget } from './wait-budget.js';

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  /** 'X-API-KEY' for v3, 'x-api-key' for v2. */
  authHeader: string;
  /** Each try's limit for its whole answer (--try-timeout; default 30 s). */
  tryTimeoutMs?: number;
  /** The command's --timeout: what every request, retry and backoff of the command may wait in all. */
  budget?: WaitBudget;
  /** Where the base URL came from ('ASSESS_BASE_URL', "config base-url (profile 'x')"), for hints. */
  baseUrlFrom?: string;
  /** The run's secrets (the key is added): everything the transport logs or puts in an error is scrubbed of them. */
  secrets?: Secrets;
  maxAttempts?: number;
  /**
   * Allow plain http:// to a host that is not loopback (else the constructor refuses: the key would travel in clear).
   */
  insecureHttp?: boolean;
  /** The largest answer read into memory, decoded (default 64 MiB); larger is AnswerTooLargeError, not retried. */
  maxAnswerBytes?: number;
  debug?: (line: string) => void;
  /**
   * A dispatcher of its own (tests); else `pool`, the run's keep-alive pool; else undici's global one (outside a CLI
   * run).
   */
  dispatcher?: Dispatcher;
  pool?: DispatcherSource;
  /** Shared by the requests of one client: a 429's hold (BackoffGate), or a bulk run's pace (pace.ts). */
  gate?: Gate;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  signal?: AbortSignal;
  /** Asked before each request goes out (the connection's: `assess mcp` sets one); throws to keep it here. */
  guard?: SendGuard;
}

export interface RequestSpec {
  operation: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Whether a repeat is safe after a try that may have reached the service (operations/types.ts). */
  repeat: Repeat;
  /**
   * The caller's word: this call has the service e-mail the candidate, so it is repeated only where the service surely
   * did nothing.
   */
  emails?: boolean;
  /**
   * Called, and awaited, once the whole final answer is in and before it is read: a bulk pool
   * gives the request's slot back here, so that its next request goes out first.
   */
  onAnswered?: () => unknown;
}

/**
 * Asked before a request leaves this machine; throws to keep it here. `assess mcp` puts one on the
 * connection of each tool call (a dry run records and holds back every request that would change
 * something; a call that may change nothing refuses them), and every transport is made from a
 * connection (client-transport.ts), so no client of that call can send one past it.
 */
export type SendGuard = (spec: RequestSpec) => void;

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
  request: RequestInfo;
  attempts: number;
  /**
   * An earlier try of this request may have been carried out by the service though its answer
   * was lost (a reset after sending, a 5xx, a cut body): a refusal now may be the repeat's.
   */
  maybeApplied: boolean;
}

export const DEFAULT_TRY_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_ATTEMPTS = 4;
export const USER_AGENT = `assess-cli/${VERSION} node/${process.versions.node}`;
