// The variance quirks mode puts into answers (see quirks.ts): each rule rewrites a parsed JSON
// body, in place or by returning a new one. They imitate what the production service and its
// public samples are known to do (../shared/spec/vendor-facts.md) or plausibly do: ids as strings,
// nulls for optional fields, other spellings and casings, extra and missing optional fields.
// Never touched: what a client needs to act (ids, testUrl, the arrays of a listing) and the
// settings values (a full replace sends them back; the service requires every one).

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

export const isObject = (v: unknown): v is JsonObject => !!v && typeof v === 'object' && !Array.isArray(v);

/** Visits every object of a body (depth first), with its key path. */
export function eachObject(v: Json, fn: (o: JsonObject, path: string[]) => void, path: string[] = []): void {
  if (Array.isArray(v)) v.forEach((x) => eachObject(x, fn, path));
  else if (isObject(v)) {
    fn(v, path);
    for (const [k, x] of Object.entries(v)) eachObject(x, fn, [...path, k]);
  }
}

const ID_KEY = /(Id|ID|Ids)$/;
/** Keys the client needs to act on, never nulled or dropped. */
const NEEDED = new Set([
  'testInvitationId',
  'testId',
  'testLinkId',
  'testUrl',
  'takeTestURL',
  'tests',
  'testLinks',
  'testAttempts',
  'timeZones',
  'testinvitationIds',
  'successful',
  'failed',
  'result',
  'statuscode',
  'qbId',
  'sectionId',
  'status',
  'Status',
  'testStatus',
]);
/** Sub-objects of the settings: their values are sent back unchanged and must stay complete. */
const SETTINGS = /Settings$/;

const inSettings = (path: string[]) => path.some((p) => SETTINGS.test(p));

/** Every id (a key ending in Id) as a string of digits. */
export function idsAsStrings(body: Json): void {
  eachObject(body, (o) => {
    for (const [k, v] of Object.entries(o)) {
      if (!ID_KEY.test(k)) continue;
      if (typeof v === 'number') o[k] = String(v);
      else if (Array.isArray(v)) o[k] = v.map((x) => (typeof x === 'number' ? String(x) : x));
    }
  });
  // ids inside {successful: [..], failed: [..]}
  eachObject(body, (o) => {
    for (const k of ['successful', 'failed'])
      if (Array.isArray(o[k])) o[k] = (o[k] as Json[]).map((x) => (typeof x === 'number' ? String(x) : x));
  });
}

/** Optional fields become null (a chance each). */
export function nullOptional(body: Json, chance: () => boolean): void {
  eachObject(body, (o, path) => {
    if (inSettings(path)) return;
    for (const k of Object.keys(o))
      if (!NEEDED.has(k) && !ID_KEY.test(k) && !SETTINGS.test(k) && o[k] !== null && chance()) o[k] = null;
  });
}

/** Optional fields left out (a chance each). */
export function dropOptional(body: Json, chance: () => boolean): void {
  eachObject(body, (o, path) => {
    if (inSettings(path)) return;
    for (const k of Object.keys(o)) if (!NEEDED.has(k) && !ID_KEY.test(k) && !SETTINGS.test(k) && chance()) delete o[k];
  });
}

/** Fields the client does not know. */
export function addExtras(body: Json, n: number): void {
  if (!isObject(body)) return;
  body.requestId = `req-${n.toString(36)}`;
  body._links = { self: { href: '/v3' } };
  eachObject(body, (o, path) => {
    if (path.length && !inSettings(path)) o.extraFlag = n % 2 === 0;
  });
}

/** Enum-like values in other casings and the synonyms the samples use. */
const ENUM_KEYS = new Set([
  'status',
  'Status',
  'testStatus',
  'testLinkStatus',
  'invitationType',
  'scheduleType',
  'proctoringMode',
  'reportStatus',
  'invitationtype',
]);
const SYNONYMS: Record<string, string[]> = {
  Complete: ['Completed', 'complete', 'COMPLETE'],
  'In Progress': ['inprogress', 'In progress', 'IN PROGRESS'],
  Pending: ['pending', 'PENDING'],
  Cancelled: ['cancelled', 'Canceled'],
  Expired: ['expired'],
  'Test Left': ['testleft', 'Test left'],
  Terminated: ['terminated'],
  active: ['Active', 'ACTIVE'],
  inactive: ['Inactive'],
  email: ['Email'],
  open: ['Open'],
  validityindays: ['ValidityInDays'],
  timebound: ['TimeBound'],
  slotwise: ['SlotWise'],
  disabled: ['Disabled'],
  Active: ['active'],
  Completed: ['complete', 'COMPLETED'],
  'In progress': ['In Progress', 'inprogress'],
  Generated: ['generated'],
  api: ['API'],
  app: ['App'],
};
export function varyEnums(body: Json, pick: (n: number) => number): void {
  eachObject(body, (o, path) => {
    if (inSettings(path)) return;
    for (const [k, v] of Object.entries(o)) {
      if (!ENUM_KEYS.has(k) || typeof v !== 'string') continue;
      const alts = SYNONYMS[v];
      if (alts?.length) o[k] = alts[pick(alts.length)]!;
    }
  });
}

/** The other spellings the samples use for the same field. */
const SPELLINGS: Record<string, string> = {
  sectionId: 'sectionID',
  Skills: 'skills',
  skills: 'Skills',
  status: 'Status',
  testUrl: 'testURL',
  callbackUrlRegistered: 'callbackURLRegistered',
  redirectUrlRegistered: 'redirectURLRegistered',
  qbId: 'qbID',
  PerformanceCategory: 'performanceCategory',
  testLinkName: 'TestLinkName',
  candidateEmail: 'CandidateEmail',
};
export function respell(body: Json, chance: () => boolean): void {
  eachObject(body, (o, path) => {
    if (inSettings(path)) return;
    for (const k of Object.keys(o)) {
      const alt = SPELLINGS[k];
      if (!alt || alt in o || !chance()) continue;
      const v = o[k]!;
      delete o[k];
      o[alt] = v;
    }
  });
}

/** Production's typeOfTest numbering: 0 multiple, 1 single (the spec's 1 and 2). */
export function typeOfTestToVendor(body: Json): void {
  const t = isObject(body) && isObject(body.testSettings) ? body.testSettings : undefined;
  if (t && typeof t.typeOfTest === 'number' && t.typeOfTest > 0) t.typeOfTest -= 1;
}
export function typeOfTestFromVendor(body: unknown): void {
  const t = isObject(body) && isObject(body.testSettings) ? body.testSettings : undefined;
  if (t && typeof t.typeOfTest === 'number' && (t.typeOfTest === 0 || t.typeOfTest === 1)) t.typeOfTest += 1;
}
