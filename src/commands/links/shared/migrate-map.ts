// v2 test link → the equivalent v3 link body (pure; unit-tested). The rules, also in
// docs/v2-to-v3.md: accessTime 1 → timebound, 2 → slotwise, 0 ("anytime") → validityindays with
// a long validity (v3 has no schedule without an end; default 3650 days, `--anytime-days N`);
// imageProctoring 1 → proctoringMode image (else disabled); inviteCandidateOnly 1 → email,
// 0 → open; testLinkStatus 1 → active, 3 → inactive; v2 dates (UTC, no Z) gain the Z.
import * as z from 'zod/mini';
import { TestLinkInput } from '../../../api/schemas/links.js';
import { parseWith } from '../../../api/schemas/parse.js';
import { fromV2DateTime } from '../../../api/v2-date-time.js';
import type { V2TestLink } from '../../../api/read/v2.js';
import { DEFAULT_ANYTIME_DAYS } from './migrate-defaults.js';

export type Mapped = { ok: true; body: Record<string, unknown> } | { ok: false; reason: string };

export function v3LinkFromV2(l: V2TestLink, anytimeDays = DEFAULT_ANYTIME_DAYS): Mapped {
  const status = l.testLinkStatus === 1 ? 'active' : l.testLinkStatus === 3 ? 'inactive' : null;
  if (!status)
    return { ok: false, reason: `testLinkStatus ${l.testLinkStatus} is neither 1 (active) nor 3 (inactive)` };
  if (l.timeZoneId == null)
    return { ok: false, reason: 'the v2 link has no timeZoneId, which every v3 schedule needs' };
  const tz = Number(l.timeZoneId);
  let schedule: Record<string, unknown>;
  if (l.accessTime === 0) {
    schedule = {
      scheduleType: 'validityindays',
      scheduleDetails: { invitationValidityInDays: anytimeDays, timeZoneId: tz },
    };
  } else if (l.accessTime === 1 || l.accessTime === 2) {
    if (!l.startDateTime || !l.endDateTime)
      return { ok: false, reason: `accessTime ${l.accessTime} without startDateTime/endDateTime` };
    schedule = {
      scheduleType: l.accessTime === 1 ? 'timebound' : 'slotwise',
      scheduleDetails: {
        startDateTime: fromV2DateTime(l.startDateTime),
        endDateTime: fromV2DateTime(l.endDateTime),
        timeZoneId: tz,
      },
    };
  } else {
    return { ok: false, reason: `accessTime ${l.accessTime} is not 0, 1 or 2` };
  }
  const body: Record<string, unknown> = {
    testLinkName: l.testLinkName,
    testLinkStatus: status,
    invitationType: l.inviteCandidateOnly === 1 ? 'email' : 'open',
    proctoringSettings: { proctoringMode: l.imageProctoring === 1 ? 'image' : 'disabled' },
    ...(l.emailToStakeholder ? { stakeholderEmails: l.emailToStakeholder } : {}),
    invitationSchedule: schedule,
  };
  // the body must be one the v3 API accepts (the shared request schema says what that is)
  const check = parseWith(z.omit(TestLinkInput, { testId: true }), body);
  return check.ok ? { ok: true, body } : { ok: false, reason: `no valid v3 link: ${check.errors.join('; ')}` };
}

export interface MigrationRow {
  v2TestLinkId: number | string;
  testLinkName: string;
  accessTime: number | null;
  scheduleType: string | null;
  action: 'create' | 'created' | 'exists' | 'unmappable' | 'failed';
  v3TestLinkId: number | string | null;
  note: string;
  v3Link: Record<string, unknown> | null;
}

const key = (name: string | null | undefined) => (name ?? '').trim().toLowerCase();

/**
 * The plan: one row per v2 link. A v3 link with the same name (any case) means the link is
 * already there — the same object where the service shows v2 links through v3 (same id), or an
 * earlier migration — so a re-run creates nothing twice.
 */
export function planMigration(
  v2: V2TestLink[],
  v3: Array<{ testLinkId: number | string; testLinkName?: string | null }>,
  anytimeDays = DEFAULT_ANYTIME_DAYS,
): MigrationRow[] {
  const byName = new Map<string, number | string>();
  for (const l of v3)
    if (l.testLinkName && !byName.has(key(l.testLinkName))) byName.set(key(l.testLinkName), l.testLinkId);
  const planned = new Set<string>();
  return v2.map((l) => {
    const m = v3LinkFromV2(l, anytimeDays);
    const row: MigrationRow = {
      v2TestLinkId: l.testLinkId,
      testLinkName: l.testLinkName ?? '',
      accessTime: l.accessTime ?? null,
      scheduleType: m.ok ? (m.body.invitationSchedule as { scheduleType: string }).scheduleType : null,
      action: 'create',
      v3TestLinkId: null,
      note: '',
      v3Link: m.ok ? m.body : null,
    };
    if (!m.ok) return { ...row, action: 'unmappable', note: m.reason };
    const existing = byName.get(key(l.testLinkName));
    if (existing !== undefined)
      return {
        ...row,
        action: 'exists',
        v3TestLinkId: existing,
        note:
          existing === l.testLinkId
            ? 'same link, already reachable through v3'
            : `a v3 link named '${l.testLinkName}' exists`,
      };
    if (planned.has(key(l.testLinkName)))
      return { ...row, action: 'exists', note: 'another v2 link of this name is migrated first' };
    planned.add(key(l.testLinkName));
    return row;
  });
}
