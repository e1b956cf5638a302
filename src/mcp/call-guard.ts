// The guard a tool call's connection carries: it sees every request of every client the command
// can make. Reads go out; what would change something is, as the call's mode says, held back and
// listed (a dry run), refused (a call that may change nothing), or sent and listed (an allowed write).
import type { RequestSpec, SendGuard } from '../api/transport.js';

export interface WouldSend {
  method: string;
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** Thrown in place of sending a request that would change something, on a dry run. */
export class DryRunStop extends Error {
  constructor() {
    super('dry run: not sent');
  }
}

/** Thrown in place of sending a request that would change something, from a call that may change nothing. */
export class WriteRefused extends Error {
  constructor(r: WouldSend) {
    super(`${r.method} ${r.path} changes data and this call may change nothing: not sent`);
  }
}

/** What a call may send: reads only; its writes too; or, on a dry run, reads only, its writes listed. */
export type Mode = 'read-only' | 'writes' | 'dry-run';

export interface Guarded {
  guard: SendGuard;
  /** Dry run: held back. */
  held: WouldSend[];
  /** Writes: sent. */
  sent: WouldSend[];
  /** Read-only: the first request that was refused. */
  refused?: WouldSend;
}

/**
 * The call's guard: reads (GET, or a query sent as a POST: the `read` repeat class) go out; the rest as the mode says.
 */
export function guardFor(mode: Mode): Guarded {
  const g: Guarded = {
    held: [],
    sent: [],
    guard: (spec: RequestSpec) => {
      if (spec.method === 'GET' || spec.repeat === 'read') return;
      const r = wouldSend(spec);
      if (mode === 'dry-run') {
        g.held.push(r);
        throw new DryRunStop();
      }
      if (mode === 'read-only') {
        g.refused ??= r;
        throw new WriteRefused(r);
      }
      g.sent.push(r);
    },
  };
  return g;
}

const wouldSend = (spec: RequestSpec): WouldSend => ({
  method: spec.method,
  path: spec.path,
  ...(spec.query ? { query: spec.query } : {}),
  ...(spec.body !== undefined ? { body: spec.body } : {}),
});
