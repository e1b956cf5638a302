// The one place that maps errors to exit codes and to the one- or two-line message users see.
import { AnswerTooLargeError, ApiError, NetworkError, ResponseShapeError } from '../api/errors.js';
import { wasSent } from '../api/retry.js';
import { htmlTitle, looksLikeHtml } from '../api/read/answer-kind.js';
import {
  AuthError,
  CancelledError,
  LocalError,
  NotFoundError,
  OutcomeError,
  PartialFailureError,
  UsageError,
  WaitTimeoutError,
} from '../errors.js';
import { strayFileProblem } from '../util/file-errors.js';
import { movedSandboxHint } from './moved-sandbox.js';
import { refusedKeyHint, type KeyOrigin } from '../config/key-origin.js';

export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  partial: 5,
  network: 6,
  interrupted: 130,
  /** SIGHUP (the terminal closed, the SSH session dropped): 128 + 1. */
  hangup: 129,
  /** SIGTERM: 128 + 15. */
  terminated: 143,
} as const;

export function exitCodeFor(err: unknown): number {
  if (err instanceof UsageError) return EXIT.usage;
  if (err instanceof AuthError) return EXIT.auth;
  if (err instanceof NotFoundError) return EXIT.notFound;
  if (err instanceof PartialFailureError) return EXIT.partial;
  if (err instanceof NetworkError) return EXIT.network;
  if (err instanceof WaitTimeoutError) return EXIT.network;
  if (err instanceof OutcomeError) return EXIT.failed;
  if (err instanceof CancelledError) return err.interrupted ? EXIT.interrupted : EXIT.failed;
  if (err instanceof ApiError) {
    switch (err.kind) {
      case 'auth':
        return EXIT.auth;
      case 'not_found':
        return EXIT.notFound;
      case 'rate_limited':
        return EXIT.network;
      default:
        return EXIT.failed;
    }
  }
  if (strayFileProblem(err)) return EXIT.usage;
  return EXIT.failed;
}

/** "error: what failed" plus, where we know it, a line saying what to do next. */
export function describeError(
  err: unknown,
  env: Record<string, string | undefined> = {},
  /** Where the run's key came from, when it has one: a refused key's hint names that place. */
  key?: KeyOrigin,
): { message: string; hint?: string } {
  if (
    err instanceof UsageError ||
    err instanceof AuthError ||
    err instanceof NotFoundError ||
    err instanceof LocalError ||
    err instanceof OutcomeError ||
    err instanceof WaitTimeoutError
  ) {
    return { message: err.message, hint: err.hint };
  }
  if (err instanceof PartialFailureError) return { message: err.message };
  if (err instanceof AnswerTooLargeError) return { message: err.message }; // one line: the cap and how to raise it
  if (err instanceof CancelledError) return { message: err.message };
  if (err instanceof NetworkError) {
    const created = err.code !== undefined && !wasSent(err.code) ? undefined : mayHaveCreated(err.request);
    return {
      message: err.message + (err.attempts > 1 ? ` (${err.attempts} attempts)` : ''),
      hint:
        err.unconfirmed ??
        created ??
        (err.timedOut
          ? `the service did not answer in time; retry later, or raise ${
              /--timeout/.test(err.message)
                ? "--timeout (the whole command's limit)"
                : "--try-timeout (each try's limit) or --timeout (the whole command's)"
            }`
          : (err.hint ?? unreachableHint(err, env))),
    };
  }
  if (err instanceof ApiError) {
    const what = `${err.request.method} ${new URL(err.request.url).pathname} → HTTP ${err.status}`;
    const shown = shownMessages(err);
    const said = shown.length ? `: ${shown.join('; ')}` : '';
    return { message: `${what}${said}`, hint: err.unconfirmed ?? hintFor(err, env, key) };
  }
  if (err instanceof ResponseShapeError) {
    return {
      message: err.message,
      hint: err.hint ?? 'the service answered in an unexpected shape; run with --debug to see it',
    };
  }
  const file = strayFileProblem(err);
  if (file) return { message: file.message, hint: file.hint };
  return {
    message: err instanceof Error ? err.message : String(err),
    hint: 'this looks like a bug; run with --debug and report it',
  };
}

/**
 * The service's messages as the error line shows them. A body in none of its shapes is someone
 * else's (a proxy, a web server): an HTML page is named by its title, not dumped line by line,
 * and other text is kept on one line.
 */
function shownMessages(err: ApiError): string[] {
  if (err.body.shape !== 'unknown') return err.messages;
  const text = err.body.text.trim();
  if (looksLikeHtml(text)) {
    const title = htmlTitle(text);
    return [`an HTML page${title ? ` ("${title}")` : ''}`];
  }
  return text ? [text.replace(/\s+/g, ' ')] : [];
}

function hintFor(err: ApiError, env: Record<string, string | undefined>, key?: KeyOrigin): string | undefined {
  switch (err.kind) {
    case 'auth':
      return key
        ? refusedKeyHint(key)
        : "the key was refused; check it with 'assess auth status' (or log in again with 'assess auth login')";
    case 'not_found':
      // 404, or the service's 401/403 "does not belong to this account or was not found"
      // (src/api/errors.ts): an unknown id and another account's id read alike.
      if (err.status === 404 && !err.fromService) return notTheService(err, env);
      return err.status === 404
        ? 'check the id'
        : 'check the id: the service does not know it in this account (it may not exist, or belong to another account)';
    case 'rate_limited':
      return `still rate limited after ${err.attempts} attempts; wait a minute, or lower --concurrency`;
    case 'server':
      return (
        mayHaveCreated(err.request) ??
        `the service failed${err.attempts > 1 ? ` after ${err.attempts} attempts` : ''}; retry later`
      );
    default:
      return undefined;
  }
}

/**
 * A link creation is never repeated (a repeat makes a second link), so after a 5xx, a reset or
 * a timeout the first may still have been carried out: "retry later" would create a duplicate.
 */
function mayHaveCreated(req: { operation: string; url: string }): string | undefined {
  // a reattempt is repeated by the transport (the spec returns the first try's on repeat): after
  // the last try, what stands is that the first may have been made, and repeating is safe
  if (req.operation === 'v3.reattempt')
    return (
      'the service may have made the reattempt anyway; the same command again returns that reattempt, never a ' +
      'second (with --send-email, the candidate may be e-mailed again)'
    );
  if (req.operation !== 'v3.createLink' && req.operation !== 'v2.createLink') return undefined;
  const testId = /\/tests\/([^/?#]+)\/testlinks/.exec(req.url)?.[1];
  const v2 = req.operation === 'v2.createLink' ? ' --api v2' : '';
  const list = `assess links list ${testId ? decodeURIComponent(testId) : '<testId>'}${v2}`;
  return (
    `the service may have created the link anyway (not repeated, so not twice): check with \`${list}\` before ` +
    `creating it again`
  );
}

/**
 * A 404 whose body is none of the service's error shapes came from something else at that
 * address (a web server's page, another API): the base URL, not the id, is the likely fault.
 */
function notTheService(err: ApiError, env: Record<string, string | undefined>): string {
  // a shape of the service's without its fields ({message} without statusCode) is someone else's JSON
  const text = err.body.shape === 'unknown' ? err.body.text.trim() : '{';
  const got = !text
    ? 'an empty answer'
    : looksLikeHtml(text)
      ? 'an HTML page'
      : /^[[{]/.test(text)
        ? 'JSON in another shape'
        : 'plain text';
  return (
    `${got}, not the service's error: the base URL may be wrong; ${baseUrlCheck(err.request, env)} (if it is ` +
    `right, check the id)`
  );
}

/** Where a request's base URL came from, as what to check: the variable that set it, else the profile's setting. */
function baseUrlCheck(req: { operation: string; url: string }, env: Record<string, string | undefined>): string {
  const url = req.url;
  const version = apiVersionOf(req);
  const names =
    version === 'v3'
      ? (['ASSESS_BASE_URL'] as const)
      : version === 'v2'
        ? ([env.ASSESS_BASE_URL_V2?.trim() ? 'ASSESS_BASE_URL_V2' : 'ASSESS_BASE_URL'] as const)
        : (['ASSESS_BASE_URL_V2', 'ASSESS_BASE_URL'] as const);
  const fromVar = names.find((name) => {
    const v = env[name]?.trim().replace(/\/+$/, '');
    return v && url.startsWith(v.replace(/\/(v3|v2(\/org)?)$/i, ''));
  });
  if (fromVar) return `check ${fromVar} (the address it sets)`;
  return `check the base URL (assess config get ${version === 'v2' ? 'base-url-v2' : 'base-url'})`;
}

/**
 * Where the unreachable address came from: the variable that set it, else the profile's config.
 * The request's API version decides which variable could have: ASSESS_BASE_URL for v3;
 * ASSESS_BASE_URL_V2 for v2 when set, else ASSESS_BASE_URL (the v2 address defaults to it). Both
 * may hold the same URL, so the address alone cannot tell them apart.
 */
function unreachableHint(err: NetworkError, env: Record<string, string | undefined>): string {
  const moved = movedSandboxHint(err.request.url, env);
  if (moved) return moved;
  return `${baseUrlCheck(err.request, env)}, your network and proxy settings`;
}

/** The API version a request went out under: its operation's prefix (`v3.getReport`, `v2.api`), else its path. */
function apiVersionOf(req: { operation: string; url: string }): 'v2' | 'v3' | undefined {
  const m = /^(v2|v3)\./.exec(req.operation) ?? /^[a-z]+:\/\/[^/]*(?:\/[^?#]*)?\/(v2|v3)(?:[/?#]|$)/i.exec(req.url);
  return m ? (m[1]!.toLowerCase() as 'v2' | 'v3') : undefined;
}
