// The invitation state machine — pure functions, no store, no clock reads (callers pass `now`).
// The two 6-row tables of the spec are encoded literally below; moves the spec leaves "not
// shown" (start, complete, leave, terminate, expire, cancel) are documented in docs/assumptions.md.
import type { AttemptState, InvitationStatus } from '../api/schemas/v3.js';
import type { Schedule } from './model.js';

export const TERMINAL: readonly InvitationStatus[] = ['Complete', 'Test Left', 'Terminated'];
export const isTerminal = (s: InvitationStatus) => TERMINAL.includes(s);
/** States whose attempt has scores (a report with numbers, a PDF). */
export const hasResult = isTerminal;

// ───────────── invite (default link or chosen link) on an existing invitation ─────────────

export type InviteAction =
  /** Same invitation, stays Pending; access time / time zone replaced by the request's values. */
  | 'replace-access'
  /** Same invitation, back to Pending with a fresh access window (then the request's values). */
  | 'reopen'
  /** Same invitation returned untouched. */
  | 'return';

export interface InviteDecision {
  action: InviteAction;
  next: InvitationStatus;
  /** The candidate will see "already appeared, contact the test administrator". */
  alreadyAppeared: boolean;
}

/** The spec's invite table (+ Terminated, not in the table: treated like Test Left). */
export const INVITE_TABLE: Record<InvitationStatus, InviteDecision> = {
  Pending: { action: 'replace-access', next: 'Pending', alreadyAppeared: false },
  Cancelled: { action: 'reopen', next: 'Pending', alreadyAppeared: false },
  Expired: { action: 'reopen', next: 'Pending', alreadyAppeared: false },
  Complete: { action: 'return', next: 'Complete', alreadyAppeared: true },
  'In Progress': { action: 'return', next: 'In Progress', alreadyAppeared: false },
  'Test Left': { action: 'return', next: 'Test Left', alreadyAppeared: true },
  Terminated: { action: 'return', next: 'Terminated', alreadyAppeared: true },
};

export function inviteOnExisting(status: InvitationStatus): InviteDecision {
  return INVITE_TABLE[status];
}

// ───────────────────────────── reattempt ─────────────────────────────

export type ReattemptDecision =
  | { action: 'replace-access'; on: number; next: 'Pending' }
  | { action: 'reopen'; on: number; next: 'Pending' }
  | { action: 'new-invitation'; from: number }
  | { action: 'return-latest'; on: number }
  | { action: 'refuse'; message: string };

/** The spec's reattempt table for one invitation (+ Terminated: like Test Left). */
export function reattemptOn(id: number, status: InvitationStatus): ReattemptDecision {
  switch (status) {
    case 'Pending':
      return { action: 'replace-access', on: id, next: 'Pending' };
    case 'Cancelled':
    case 'Expired':
      return { action: 'reopen', on: id, next: 'Pending' };
    case 'Complete':
    case 'Test Left':
    case 'Terminated':
      return { action: 'new-invitation', from: id };
    case 'In Progress':
      return {
        action: 'refuse',
        message: `Reattempt is not allowed on test invitation id ${id} because the test is in progress.`,
      };
  }
}

/**
 * Reattempt on `target`, knowing the latest invitation of the same candidate on the same link
 * (`latest`, possibly target itself). A new reattempt only after the previous one was taken:
 * while the latest reattempt is still Pending it is returned again; while it is In Progress the
 * call is refused; a cancelled/expired latest reattempt is reopened; a taken one spawns the next.
 */
export function reattemptPlan(
  target: { id: number; status: InvitationStatus },
  latest: { id: number; status: InvitationStatus },
): ReattemptDecision {
  if (latest.id === target.id) return reattemptOn(target.id, target.status);
  if (latest.status === 'Pending') return { action: 'return-latest', on: latest.id };
  if (latest.status === 'In Progress')
    return {
      action: 'refuse',
      message:
        `Reattempt is not allowed on test invitation id ${target.id}: its latest reattempt ` +
        `${latest.id} is in progress.`,
    };
  return reattemptOn(latest.id, latest.status);
}

// ─────────────────── attempt moves (driven by the candidate / control API) ───────────────────

export type SimulateTo = 'start' | 'complete' | 'leave' | 'terminate' | 'expire';
export const SIMULATE_TARGETS: readonly SimulateTo[] = ['start', 'complete', 'leave', 'terminate', 'expire'];

const SIMULATE_NEXT: Record<SimulateTo, InvitationStatus> = {
  start: 'In Progress',
  complete: 'Complete',
  leave: 'Test Left',
  terminate: 'Terminated',
  expire: 'Expired',
};

/** Which states each move may start from. complete/leave/terminate from Pending imply a start. */
const SIMULATE_FROM: Record<SimulateTo, readonly InvitationStatus[]> = {
  start: ['Pending'],
  complete: ['Pending', 'In Progress'],
  leave: ['Pending', 'In Progress'],
  terminate: ['Pending', 'In Progress'],
  expire: ['Pending'],
};

export type Transition = { ok: true; next: InvitationStatus; impliesStart: boolean } | { ok: false; message: string };

export function simulateTransition(status: InvitationStatus, to: SimulateTo): Transition {
  if (!SIMULATE_FROM[to].includes(status)) {
    const from = SIMULATE_FROM[to].join(' or ');
    return { ok: false, message: `Cannot ${to} an invitation that is ${status}; '${to}' is allowed from ${from}.` };
  }
  return { ok: true, next: SIMULATE_NEXT[to], impliesStart: status === 'Pending' && to !== 'start' && to !== 'expire' };
}

/** The production service's refusal, word for word (vendor facts, cancel). */
export const CANCEL_REFUSED = 'Testinvitation state in inprogress, complete, and expired can not be cancelled.';

/**
 * Cancel (vendor facts): only a Pending invitation can be cancelled; every other state —
 * In Progress, Complete, Expired, an already Cancelled one, Test Left, Terminated — is refused,
 * so a repeated cancel is a 400, not a no-op.
 */
export function cancelTransition(
  _id: number,
  status: InvitationStatus,
): { ok: true; next: 'Cancelled'; changed: true } | { ok: false; message: string } {
  if (status === 'Pending') return { ok: true, next: 'Cancelled', changed: true };
  return { ok: false, message: CANCEL_REFUSED };
}

/** A Pending invitation whose access window ended before `nowMs` is Expired. */
export function isDueForExpiry(inv: { status: InvitationStatus; accessEnd: string | null }, nowMs: number): boolean {
  return inv.status === 'Pending' && inv.accessEnd !== null && Date.parse(inv.accessEnd) < nowMs;
}

// ───────────────────────────── access window ─────────────────────────────

export interface AccessWindow {
  accessStart: string | null;
  accessEnd: string | null;
  timeZoneId: number | null;
}

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The access window an invitation gets from its link's schedule at `nowMs`. */
export function accessWindowFromSchedule(schedule: Schedule, nowMs: number): AccessWindow {
  if (schedule.scheduleType === 'validityindays') {
    const d = schedule.scheduleDetails;
    return {
      accessStart: iso(nowMs),
      accessEnd: iso(nowMs + d.invitationValidityInDays * DAY_MS),
      timeZoneId: d.timeZoneId,
    };
  }
  const d = schedule.scheduleDetails;
  return { accessStart: d.startDateTime, accessEnd: d.endDateTime, timeZoneId: d.timeZoneId };
}

/** The request's access values replace the window's where given (invite and reattempt rows). */
export function overrideAccess(
  w: AccessWindow,
  req: { startDateTime?: string; endDateTime?: string; timeZoneId?: number },
): AccessWindow {
  return {
    accessStart: req.startDateTime ?? w.accessStart,
    accessEnd: req.endDateTime ?? w.accessEnd,
    timeZoneId: req.timeZoneId ?? w.timeZoneId,
  };
}

// ───────────────────────────── listing attempts ─────────────────────────────

/** The spec's grouping for list attempts, and which timestamp places an attempt in the range. */
export const ATTEMPT_GROUPS: Record<
  AttemptState,
  { statuses: readonly InvitationStatus[]; at: 'finishedAt' | 'cancelledAt' | 'expiredAt' }
> = {
  completed: { statuses: TERMINAL, at: 'finishedAt' },
  cancelled: { statuses: ['Cancelled'], at: 'cancelledAt' },
  expired: { statuses: ['Expired'], at: 'expiredAt' },
};

/** A completion notification is queued when an attempt starts and when it ends. */
export const sendsCallback = (s: InvitationStatus) => s === 'In Progress' || isTerminal(s);
