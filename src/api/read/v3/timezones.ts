// Time zones (the vendor's list operation; its body is not public, so any list of objects with
// an id and a name is read: {timeZones|timezones|result|data: […]} or a bare array).
import * as z from 'zod/mini';
import { id, list, obj, optText, foldKey } from '../policy.js';

export const TimeZone = obj({ timeZoneId: id, name: optText, displayName: optText, utcOffset: optText });
export type TimeZone = z.infer<typeof TimeZone>;

/** Other names the same fields plausibly have (id, ianaName, description, offset), in any case. */
const ZONE_ALIASES: Record<string, string[]> = {
  timeZoneId: ['id', 'zoneId'],
  name: ['timeZoneName', 'ianaName', 'zoneName', 'ianaId'],
  displayName: ['description', 'label', 'display'],
  utcOffset: ['offset', 'baseUtcOffset'],
};

function zoneFields(v: unknown): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  const byFold = new Map(Object.keys(o).map((k) => [foldKey(k), k]));
  const out = { ...o };
  for (const [to, from] of Object.entries(ZONE_ALIASES)) {
    const key = [to, ...from].map((k) => byFold.get(foldKey(k))).find((k) => k !== undefined && o[k] !== undefined);
    if (key !== undefined) out[to] = o[key];
  }
  return out;
}

export const TimeZones = z.pipe(
  z.transform((v) => {
    // a bare list, or the first list inside whatever object holds it
    if (Array.isArray(v)) return { timeZones: v };
    if (v && typeof v === 'object' && !('timeZones' in v)) {
      const found = Object.values(v).find(Array.isArray);
      if (found) return { timeZones: found };
    }
    return v;
  }),
  obj({ timeZones: list(z.pipe(z.transform(zoneFields), TimeZone)) }),
);
export type TimeZones = z.infer<typeof TimeZones>;
