// Time zones: the vendor documents a "List timezones" operation whose path and body are not
// public (vendor-facts.md). The sandbox serves GET /v3/timezones as below; the client reads any
// similar shape tolerantly (src/api/read/v3/timezones.ts). Ids are the service's own integers.
import * as z from 'zod/mini';
import { Id } from './common.js';

export const TimeZone = z.looseObject({
  timeZoneId: Id,
  /** IANA name, e.g. Asia/Kolkata. */
  name: z.string(),
  displayName: z.string(),
  /** e.g. +05:30 */
  utcOffset: z.string(),
});
export type TimeZone = z.infer<typeof TimeZone>;

export const TimeZonesResponse = z.looseObject({ timeZones: z.array(TimeZone) });
export type TimeZonesResponse = z.infer<typeof TimeZonesResponse>;
