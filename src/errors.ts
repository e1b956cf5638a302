// Typed errors. Everything a command can fail with is one of these; src/cli/exit-codes.ts maps
// them to the exit codes of the contract (GUIDE §2) in one place.

/** Bad flag, value, argument or file; caught before any request is sent (exit 2). */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** No key, key refused, resource of another account (exit 3). */
export class AuthError extends Error {
  override name = 'AuthError';
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** Something the user named does not exist (exit 4). */
export class NotFoundError extends Error {
  override name = 'NotFoundError';
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** A bulk command finished but some items failed (exit 5). */
export class PartialFailureError extends Error {
  override name = 'PartialFailureError';
  constructor(
    message: string,
    readonly failed: number,
    readonly total: number,
  ) {
    super(message);
  }
}

/** The user interrupted (SIGINT) or declined a confirmation (exit 130 / 1). */
export class CancelledError extends Error {
  override name = 'CancelledError';
  constructor(
    message = 'interrupted',
    readonly interrupted = true,
  ) {
    super(message);
  }
}

/** Local problem that is not the user's input (state file, disk); exit 1. */
export class LocalError extends Error {
  override name = 'LocalError';
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** The command ran, but what it checks or waits for came out negative (a bad signature, an attempt that can no longer
 * complete); exit 1. */
export class OutcomeError extends Error {
  override name = 'OutcomeError';
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** A wait ran out of time (`attempts wait --timeout`); exit 6 like a network timeout. */
export class WaitTimeoutError extends Error {
  override name = 'WaitTimeoutError';
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}
