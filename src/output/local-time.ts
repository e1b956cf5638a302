// Times for people: on a terminal (and in the HTML digest) every time is shown in this machine's
// zone, named beside it — `2026-11-21 21:30 CET`, `2026-11-22 02:00 UTC+5:30`, `… 20:30 UTC` on a
// server that runs in UTC. Files and JSON keep the service's ISO 8601 UTC text. The zone is the
// run's `TZ` (so tests and users can set it), else the system's.
import { plain } from './values.js';

type Env = Record<string, string | undefined>;

/** The IANA zone of the run: `TZ` when Intl knows it (`:Europe/Paris` too; empty is UTC), else the system's. */
export function displayZone(env: Env): string | undefined {
  const tz = env.TZ;
  if (tz === undefined) return undefined;
  const name = tz.replace(/^:/, '') || 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name;
  } catch {
    return undefined; // a POSIX rule such as CET-1CEST: the system already applies it
  }
}

const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const formats = new Map<string, Intl.DateTimeFormat>();

function format(locale: string, zone: string | undefined, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${zone ?? ''}|${JSON.stringify(opts)}`;
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.DateTimeFormat(locale, { ...opts, timeZone: zone })));
  return f;
}

const part = (parts: Intl.DateTimeFormatPart[], type: string) => parts.find((p) => p.type === type)?.value ?? '';

/**
 * The zone's short name at that instant: an abbreviation where English has one (CET, BST, EST,
 * UTC), else the offset (`UTC+5:30`).
 */
export function zoneLabel(at: Date, zone?: string): string {
  for (const locale of ['en-US', 'en-GB']) {
    const name = part(format(locale, zone, { timeZoneName: 'short' }).formatToParts(at), 'timeZoneName');
    if (/^[A-Z]{2,5}$/.test(name)) return name;
  }
  const offset = part(format('en-US', zone, { timeZoneName: 'shortOffset' }).formatToParts(at), 'timeZoneName');
  return offset.replace(/^GMT/, 'UTC') || 'UTC';
}

/** `2026-11-21 21:30 CET` (with seconds: `21:30:05 CET`). */
export function localText(at: Date, zone?: string, seconds = false): string {
  const parts = format('en-US', zone, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const p = (t: string) => part(parts, t);
  const time = `${p('hour')}:${p('minute')}${seconds ? `:${p('second')}` : ''}`;
  return `${p('year')}-${p('month')}-${p('day')} ${time} ${zoneLabel(at, zone)}`;
}

/** A service value as a time for people when it is an ISO time (no zone: UTC), else its plain text. */
export function timeText(v: unknown, zone?: string): string {
  if (typeof v !== 'string' || !ISO_RE.test(v)) return plain(v);
  const d = new Date(/Z|[+-]\d{2}:?\d{2}$/.test(v) ? v : `${v}Z`);
  return Number.isNaN(d.getTime()) ? v : localText(d, zone);
}
