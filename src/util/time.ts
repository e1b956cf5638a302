// The GUIDE's time argument T: `YYYY-MM-DD`, full ISO 8601, or relative. The API always
// receives `YYYY-MM-ddTHH:mm:ssZ` in UTC. One grammar for every time flag (docs/scripting.md):
//   -2d, 2d ago, 2 days ago     two days before now        (units s, m, h, d, w; words too)
//   +7d, in 7d, in 7 days       seven days after now
//   now, today, yesterday, tomorrow   (the days at 00:00 UTC, as a YYYY-MM-DD date is)
// A bare `7d` is kept for the scripts that use it, and means what it always meant for its flag:
// the past for query windows (--from/--to/--since: "the last 7 days"), the future for schedules
// (--start/--end: "open for 7 days"). A sign or a word makes the direction explicit.
import { readAs } from './read-as.js';
import { utcSeconds } from './utc-text.js';

export type Direction = 'past' | 'future';

const UNITS: Record<string, number> = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 7 * 86400e3 };
const UNIT_WORDS: Record<string, string> = {
  sec: 's',
  second: 's',
  min: 'm',
  minute: 'm',
  hour: 'h',
  hr: 'h',
  day: 'd',
  week: 'w',
  wk: 'w',
};
const AMOUNT = String.raw`(\d{1,6})\s*([a-z]+)`;
const SIGNED = new RegExp(`^([+-]?)${AMOUNT}$`);
const AGO = new RegExp(`^${AMOUNT}\\s+ago$`);
const IN = new RegExp(`^in\\s+${AMOUNT}$`);
const DAYS: Record<string, number> = { today: 0, yesterday: -1, tomorrow: 1 };

/** The accepted forms, for messages and help. */
export const TIME_FORMS =
  'YYYY-MM-DD, ISO 8601 (2026-03-01T09:00:00Z) or relative (-2d, +7d, 2d ago, in 7d, now, today, yesterday)';

/** Milliseconds of `7d`, `3 days`, `12h`… or undefined for an unknown unit. */
function amount(n: string, unit: string): number | undefined {
  const u = unit in UNITS ? unit : UNIT_WORDS[unit.replace(/s$/, '')];
  return u === undefined ? undefined : Number(n) * UNITS[u]!;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * The years a time may fall in: the service's times are Unix times, and `YYYY` has four digits.
 * Date.UTC reads years 0–99 as 1900–1999 (`0026-03-01` would be sent as 1926), and a relative
 * time can reach far past 9999 (`+999999w`).
 */
const FIRST_YEAR = 1970;
const LAST_YEAR = 9999;

/** Parses T into a Date, or returns an error message with an accepted example. */
export function parseTime(input: string, now: Date, direction: Direction): Date | string {
  const t = parseAnyTime(input, now, direction);
  if (typeof t === 'string') return t;
  const year = t.getUTCFullYear();
  if (year >= FIRST_YEAR && year <= LAST_YEAR) return t;
  return (
    `'${input}' is ${Number.isNaN(year) ? 'not a time' : `in the year ${year}`}; use a time from ` +
    `${FIRST_YEAR} to ${LAST_YEAR}, e.g. ${utcSeconds(now).slice(0, 10)}`
  );
}

function parseAnyTime(input: string, now: Date, direction: Direction): Date | string {
  const v = input.trim();
  const lower = v.toLowerCase().replace(/\s+/g, ' ');
  if (lower === 'now') return new Date(now);
  if (lower in DAYS)
    return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + DAYS[lower]!));
  const rel = relative(lower, direction);
  if (rel !== undefined) return typeof rel === 'string' ? rel : new Date(now.getTime() + rel);
  const d = DATE_ONLY.exec(v);
  if (d) {
    const t = new Date(0);
    t.setUTCFullYear(+d[1]!, +d[2]! - 1, +d[3]!); // Date.UTC would take years 0–99 as 1900–1999
    if (t.getUTCDate() !== +d[3]! || t.getUTCMonth() !== +d[2]! - 1) return `'${input}' is not a real date`;
    return t;
  }
  if (ISO.test(v)) {
    // No offset means UTC, as in the API.
    const t = new Date(/(Z|[+-]\d{2}:?\d{2})$/i.test(v) ? v : `${v}Z`);
    if (!Number.isNaN(t.getTime()) && realCalendarDate(v)) return t;
    return `'${input}' is not a real date-time`;
  }
  return `'${input}' is not a time; use ${TIME_FORMS}`;
}

/** A relative time as signed milliseconds from now; a message for a bad unit; undefined when it is not one. */
function relative(v: string, direction: Direction): number | string | undefined {
  let m: RegExpExecArray | null;
  let sign: number;
  if ((m = AGO.exec(v))) sign = -1;
  else if ((m = IN.exec(v))) sign = 1;
  else if ((m = SIGNED.exec(v))) {
    sign = m[1] === '+' ? 1 : m[1] === '-' ? -1 : direction === 'future' ? 1 : -1;
    m = [m[0], m[2]!, m[3]!] as unknown as RegExpExecArray;
  } else return undefined;
  const ms = amount(m[1]!, m[2]!);
  if (ms === undefined)
    return (
      `'${m[2]}' is not a unit of time; use s, m, h, d or w (or seconds, minutes, hours, days, weeks), ` + 'e.g. 2d ago'
    );
  return sign * ms;
}

function realCalendarDate(v: string): boolean {
  const [y, m, d] = v.slice(0, 10).split('-').map(Number) as [number, number, number];
  const t = new Date(0);
  t.setUTCFullYear(y, m - 1, d);
  return t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** `YYYY-MM-ddTHH:mm:ssZ`, the only form the API receives. */
export function toApiTime(d: Date): string {
  return utcSeconds(d);
}

/** A zod schema for a T flag: yields the API string. */
export function timeArg(direction: Direction, now: () => Date = () => new Date()) {
  return readAs((text, refuse) => {
    const r = parseTime(text, now(), direction);
    return typeof r === 'string' ? refuse(r) : toApiTime(r);
  });
}
