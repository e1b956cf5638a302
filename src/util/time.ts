// The GUIDE's time argument T: `YYYY-MM-DD`, full ISO 8601, or relative (`7d`, `12h`, `30m`,
// `now`, `+2d`, `-1w`). The API always receives `YYYY-MM-ddTHH:mm:ssZ` in UTC.
//
// A bare relative value (`7d`) points into the past for query windows (--from/--to: "the last
// 7 days") and into the future for schedules (--start/--end: "open for 7 days"); a sign makes
// the direction explicit either way.
import * as z from 'zod';
import { utcSeconds } from './utc-text.js';

export type Direction = 'past' | 'future';

const UNITS: Record<string, number> = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 7 * 86400e3 };
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** Parses T into a Date, or returns an error message with an accepted example. */
export function parseTime(input: string, now: Date, direction: Direction): Date | string {
  const v = input.trim();
  if (v.toLowerCase() === 'now') return new Date(now);
  const rel = /^([+-]?)(\d{1,6})([smhdw])$/i.exec(v);
  if (rel) {
    const sign = rel[1] === '+' ? 1 : rel[1] === '-' ? -1 : direction === 'future' ? 1 : -1;
    return new Date(now.getTime() + sign * Number(rel[2]) * UNITS[rel[3]!.toLowerCase()]!);
  }
  const d = DATE_ONLY.exec(v);
  if (d) {
    const t = new Date(Date.UTC(+d[1]!, +d[2]! - 1, +d[3]!));
    if (t.getUTCDate() !== +d[3]! || t.getUTCMonth() !== +d[2]! - 1) return `'${input}' is not a real date`;
    return t;
  }
  if (ISO.test(v)) {
    // No offset means UTC, as in the API.
    const t = new Date(/(Z|[+-]\d{2}:?\d{2})$/i.test(v) ? v : `${v}Z`);
    if (!Number.isNaN(t.getTime()) && realCalendarDate(v)) return t;
    return `'${input}' is not a real date-time`;
  }
  return `'${input}' is not a time; use YYYY-MM-DD, ISO 8601 (2026-03-01T09:00:00Z) or relative (7d, 12h, now)`;
}

function realCalendarDate(v: string): boolean {
  const [y, m, d] = v.slice(0, 10).split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** `YYYY-MM-ddTHH:mm:ssZ`, the only form the API receives. */
export function toApiTime(d: Date): string {
  return utcSeconds(d);
}

/** A zod schema for a T flag: yields the API string. */
export function timeArg(direction: Direction, now: () => Date = () => new Date()) {
  return z.string().transform((v, ctx) => {
    const r = parseTime(v, now(), direction);
    if (typeof r === 'string') {
      ctx.addIssue({ code: 'custom', message: r });
      return z.NEVER;
    }
    return toApiTime(r);
  });
}
