// What `attempts wait --until X` means for a report status: reached, still possible, or never.
// Statuses are compared case-insensitively, `Completed` = `Complete` (parsing is being made
// tolerant elsewhere; this must not depend on the exact spelling).
import { normStatus } from '../../shared/statuses.js';

export const UNTIL = ['complete', 'any-terminal', 'started'] as const;
export type Until = (typeof UNTIL)[number];
export type Verdict = 'reached' | 'waiting' | 'unreachable';

const RESULT = new Set(['complete', 'test left', 'terminated']);
const CLOSED = new Set(['cancelled', 'canceled', 'expired']);

export function verdict(status: string, until: Until): Verdict {
  const s = normStatus(status);
  const final = RESULT.has(s) || CLOSED.has(s);
  switch (until) {
    case 'complete':
      return s === 'complete' ? 'reached' : final ? 'unreachable' : 'waiting';
    case 'any-terminal':
      return final ? 'reached' : 'waiting';
    case 'started':
      return s === 'in progress' || RESULT.has(s) ? 'reached' : CLOSED.has(s) ? 'unreachable' : 'waiting';
  }
}

/** --exit-status (as `gh run watch --exit-status`): a final state other than Complete counts as failed. */
export const succeeded = (status: string) => normStatus(status) === 'complete';
