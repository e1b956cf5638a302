// Confirming a write whose answer was lost by reading the resource back: the one policy for it
// (attempts cancel, links update, settings set). A call that succeeded on the service is never
// reported as a failure, so when a failure leaves open that the write was carried out, what the
// service now holds decides.
import { ApiError, NetworkError } from './errors.js';
import { wasSent } from './retry.js';

/**
 * The write may have been carried out though it failed here: the request left this machine and
 * its answer was lost (a reset, a timeout, a cut body), a 5xx came back (a proxy's 502 may follow
 * the service's work), or a refusal answered the repeat of a try that may have been carried out.
 */
export function mayHaveBeenApplied(err: unknown): boolean {
  if (err instanceof ApiError) return err.maybeApplied || err.status >= 500;
  if (err instanceof NetworkError) return wasSent(err.code);
  return false;
}

/**
 * What became of the answer, for a warning: "HTTP 502", "ECONNRESET", "no answer in time", "the repeat was refused:
 * HTTP 400".
 */
export function lostAnswer(err: unknown): string {
  if (err instanceof ApiError)
    return err.status >= 500 ? `HTTP ${err.status}` : `the repeat was refused: HTTP ${err.status}`;
  if (err instanceof NetworkError) return err.timedOut ? 'no answer in time' : (err.code ?? 'the connection failed');
  return 'the answer was lost';
}

export interface ReadBack<T> {
  /** Reads the resource as it is now. */
  read: () => Promise<T>;
  /** Whether what was read shows the change the write asked for. */
  applied: (now: T) => boolean;
  /** Told, once confirmed, what was lost (lostAnswer) — a warning, since the answer itself never came. */
  confirmed?: (lost: string) => void;
  /**
   * How to see for oneself (a command line), said when the read-back fails too: the outcome is
   * then unknown, and "retry later" alone would be wrong when the write was carried out.
   */
  check?: string;
}

/**
 * After `err` failed a write: when the write may have been carried out and a read-back shows the
 * change, the read-back is the result; otherwise (nothing could have changed, the read fails, or
 * the change is not there) `err` stands, as it was.
 */
export async function confirmByReadBack<T>(err: unknown, rb: ReadBack<T>): Promise<T> {
  if (!mayHaveBeenApplied(err)) throw err;
  const now = await rb.read().then(
    (value) => ({ value }),
    () => undefined,
  );
  if (!now && rb.check && (err instanceof ApiError || err instanceof NetworkError))
    err.unconfirmed =
      `it may have been carried out: the answer was lost (${lostAnswer(err)}) and reading it back ` +
      `failed too; check with \`${rb.check}\` before repeating it`;
  if (!now || !rb.applied(now.value)) throw err;
  rb.confirmed?.(lostAnswer(err));
  return now.value;
}
