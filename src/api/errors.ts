// Errors of the API client. An ApiError keeps the status, the body in whichever documented
// shape it came, and the request, so callers and the CLI can decide what it means.

export type ErrorBodyShape =
  | { shape: 'errors'; errors: string[] } // {errors:[…]}
  | { shape: 'statusMessage'; statusCode: number; message: string } // {statusCode,message}
  | { shape: 'resultErrors'; errors: string[] } // {result:null, errors:[…]}
  | { shape: 'v2'; statuscode: string; description: string } // v2 {statuscode,description}
  | { shape: 'unknown'; text: string };

export interface RequestInfo {
  method: string;
  url: string; // without credentials; query included
  operation: string; // e.g. "v3.invite"
  /** Where the base URL came from, for hints: 'ASSESS_BASE_URL', "config base-url (profile 'x')", '--base-url'. */
  from?: string;
}

export type ApiErrorKind = 'auth' | 'not_found' | 'invalid' | 'rate_limited' | 'server' | 'refused';

export class ApiError extends Error {
  override name = 'ApiError';
  readonly kind: ApiErrorKind;
  /** Set when the write may have been carried out and a read-back could not tell: what to check (the hint). */
  unconfirmed?: string;
  constructor(
    readonly status: number,
    readonly body: ErrorBodyShape,
    readonly request: RequestInfo,
    readonly attempts = 1,
    /** An earlier try may have been carried out by the service (its answer was lost). */
    readonly maybeApplied = false,
  ) {
    super(describeBody(body) || `HTTP ${status}`);
    this.kind = classify(status, body, request);
  }
  /**
   * Whether the body is one of the service's own error shapes (spec, "Errors"; v2's envelope): a
   * 404 in any other form (an HTML page, another server's JSON, nothing) comes from something that
   * is not the service — most likely a base URL pointing at the wrong place.
   */
  get fromService(): boolean {
    const b = this.body;
    return b.shape === 'statusMessage' ? b.statusCode > 0 : b.shape !== 'unknown';
  }
  /** The service's messages, one string each. */
  get messages(): string[] {
    switch (this.body.shape) {
      case 'errors':
      case 'resultErrors':
        return this.body.errors;
      case 'statusMessage':
        return [this.body.message];
      case 'v2':
        return [this.body.description];
      default:
        return this.body.text ? [this.body.text] : [];
    }
  }
}

/** The connection failed, timed out, or was reset (after retries where allowed). */
export class NetworkError extends Error {
  override name = 'NetworkError';
  /** What to check, where the caller knows better than the default (an address given by a flag). */
  hint?: string;
  /** As ApiError's: the write may have been carried out, and a read-back could not tell. */
  unconfirmed?: string;
  constructor(
    message: string,
    readonly request: RequestInfo,
    readonly code: string | undefined,
    readonly attempts = 1,
    readonly timedOut = false,
  ) {
    super(message);
  }
}

const mib = (n: number) => `${Math.round((n / 1048576) * 10) / 10} MiB`;

/** The service answered 2xx with a body that does not match the wire schema. */
export class ResponseShapeError extends Error {
  override name = 'ResponseShapeError';
  constructor(
    message: string,
    readonly request: RequestInfo,
    /** What to do next, where the caller knows better than "run with --debug". */
    readonly hint?: string,
  ) {
    super(message);
  }
}

/**
 * An answer larger than the cap (ASSESS_MAX_ANSWER_MIB / `config set max-answer-mib`, 64 MiB by
 * default; a download's --max-size), counted after decoding: not read past the cap, never
 * retried (exit 1): the answer is the problem, as a ResponseShapeError's.
 */
export class AnswerTooLargeError extends ResponseShapeError {
  override name = 'AnswerTooLargeError';
  constructor(
    request: RequestInfo,
    readonly limit: number,
    /** The size the answer announced (content-length), when it did. */
    readonly declared?: number,
    /** How to raise the cap, as the error says it. */
    raise = "ASSESS_MAX_ANSWER_MIB=N or 'assess config set max-answer-mib N'",
  ) {
    super(
      `${request.method} ${request.url}: the answer is larger than the ${mib(limit)} cap` +
        `${declared !== undefined ? ` (${mib(declared)} announced; nothing read)` : ' (stopped reading there)'}; ` +
        `raise it with ${raise}`,
      request,
    );
  }
}

/**
 * A 2xx answer that is not the service's: not JSON (an HTML page, another content type), not
 * decodable, or JSON without what identifies the operation's answer (an invitation without its id
 * and URL, a listing without its list). Never a success (exit 1); the hint says what came and
 * where the base URL was set.
 */
export class UnexpectedAnswerError extends ResponseShapeError {
  override name = 'UnexpectedAnswerError';
}

/**
 * A failure the service may get over by itself: a 5xx, a 429 still limited, or the network
 * (refused, reset, timed out) — after the transport's own retries. A caller that waits anyway
 * (attempts wait) tries again later; a 4xx, an unreadable answer or a local failure would only
 * repeat.
 */
export function isTransient(err: unknown): boolean {
  if (err instanceof NetworkError) return true;
  return err instanceof ApiError && (err.kind === 'server' || err.kind === 'rate_limited');
}

export function parseErrorBody(text: string): ErrorBodyShape {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { shape: 'unknown', text: text.slice(0, 500) };
  }
  if (json && typeof json === 'object') {
    const o = json as Record<string, unknown>;
    const errors = Array.isArray(o.errors) ? o.errors.map((e) => String(e)) : undefined;
    if ('result' in o && o.result === null && errors) return { shape: 'resultErrors', errors };
    if (errors) return { shape: 'errors', errors };
    if (typeof o.statuscode === 'string' || (typeof o.statuscode === 'number' && typeof o.description === 'string'))
      return { shape: 'v2', statuscode: String(o.statuscode), description: String(o.description ?? '') };
    if (typeof o.message === 'string')
      return { shape: 'statusMessage', statusCode: Number(o.statusCode ?? 0), message: o.message };
  }
  return { shape: 'unknown', text: text.slice(0, 500) };
}

function describeBody(body: ErrorBodyShape): string {
  switch (body.shape) {
    case 'errors':
    case 'resultErrors':
      return body.errors.join('; ');
    case 'statusMessage':
      return body.message;
    case 'v2':
      return body.description;
    default:
      return body.text;
  }
}

const API_KEY_WORDS = /api[\s-]?key|subscription key|unauthori[sz]ed|authenticat/i;
/**
 * The service's answer for an id it does not know in this account ("Test invitation id 9 does not
 * belong to this account or was not found", "testinvitationIds does not belong to account or not
 * found"): an unknown id and another account's id read alike, and either way the id is what to check.
 */
const UNKNOWN_ID_WORDS = /does ?n[o']t belong|not belong to|not found/i;

// The spec uses 400 for an invalid API key (report) and 401 for bad dates (list attempts), and
// 401/403 for an unknown id as well as for a refused key (the gateway's "Access denied due to
// invalid subscription key"), so the status alone does not say what went wrong: the body and
// the operation decide (docs/assumptions.md, "Exit 3 or 4").
function classify(status: number, body: ErrorBodyShape, req: RequestInfo): ApiErrorKind {
  const text = describeBody(body);
  if (status === 429) return 'rate_limited';
  if (status === 404) return 'not_found';
  if (status >= 500) return 'server';
  if ((status === 401 || status === 403) && !API_KEY_WORDS.test(text) && UNKNOWN_ID_WORDS.test(text))
    return 'not_found';
  if (status === 403) return 'auth';
  if (status === 401) {
    if (req.operation === 'v3.listAttempts' && !API_KEY_WORDS.test(text)) return 'invalid';
    return 'auth';
  }
  if (status === 400 && API_KEY_WORDS.test(text)) return 'auth';
  if (status === 400 || status === 413 || status === 422) return 'invalid';
  return 'refused';
}
