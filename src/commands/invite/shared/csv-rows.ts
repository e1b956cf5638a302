// Reading and validating the rows of `invite --csv`: csv-parse, streamed record by record (a
// 50,000-row file is never held in memory), header names case-insensitive, every row checked
// with the same schema as the single invite, so a row is valid exactly when the equivalent
// `assess invite` command line would be.
import type { Readable } from 'node:stream';
import { showValue } from '../../../cli/command.js';
import { UsageError } from '../../../errors.js';
import { inviteSchema, type InviteInput } from './body.js';

/** Lower-cased header name → the canonical column name. */
export const COLUMNS: Record<string, string> = {
  email: 'email',
  name: 'name',
  callbackurl: 'callbackUrl',
  redirecturl: 'redirectUrl',
  startdatetime: 'startDateTime',
  enddatetime: 'endDateTime',
  timezoneid: 'timeZoneId',
  stakeholderemails: 'stakeholderEmails',
  link: 'link',
};
/** Column → the single-invite flag (schema key) it fills. */
const FLAG_OF: Record<string, string> = {
  link: 'link',
  callbackUrl: 'callbackUrl',
  redirectUrl: 'redirectUrl',
  startDateTime: 'start',
  endDateTime: 'end',
  timeZoneId: 'tz',
};
const COLUMN_OF: Record<string, string> = {
  ...Object.fromEntries(Object.entries(FLAG_OF).map(([c, f]) => [f, c])),
  stakeholders: 'stakeholderEmails',
  email: 'email',
  name: 'name',
};

const NOT_UTF8 = 'has bytes that are not UTF-8 text (save the file as UTF-8, e.g. "CSV UTF-8" in Excel)';

export type Fields = Record<string, string>;
export interface CsvRow {
  line: number;
  fields: Fields;
}
export interface BadRow {
  line: number;
  endLine?: number;
  errors: string[];
  fields?: Fields;
}
export type RowEvent = { kind: 'row'; row: CsvRow } | { kind: 'bad'; bad: BadRow };

/**
 * Streams the records of a CSV file as rows (with their first line number) or unreadable spans,
 * in file order. Line numbers are counted from each record's raw text rather than csv-parse's
 * `info`/`on_record` context objects, which cost ~30 MB of garbage on a 50,000-row file.
 */
export async function* readCsvRows(
  input: Readable,
  label: string,
  onUnknownColumns?: (names: string[]) => void,
): AsyncGenerator<RowEvent> {
  // Listen before the first await: a missing file fails while csv-parse is still loading, and an
  // 'error' without a listener would crash the process with a stack trace.
  let early: (Error & { code?: string }) | undefined;
  const onEarly = (err: Error) => (early = err);
  input.on('error', onEarly);
  const { parse } = await import('csv-parse');
  input.off('error', onEarly);
  if (early) throw new UsageError(`--from-csv: cannot read ${label} (${early.code ?? early.message})`);
  let header: string[] | null = null;
  const skipped: Array<{ end: number; errors: string[] }> = [];
  const parser = parse({
    bom: true,
    trim: true,
    skip_empty_lines: true,
    raw: true,
    skip_records_with_error: true,
    relax_column_count_less: true, // trailing empty columns may be left out
    columns: (names: string[]) => {
      header = names.map((n) => COLUMNS[n.trim().toLowerCase()] ?? n.trim());
      checkHeader(header, label, onUnknownColumns);
      return header;
    },
  });
  parser.on('skip', (err: Error & { code?: string; lines?: number }) => {
    const prev = skipped.at(-1);
    const end = err.lines ?? (prev?.end ?? 1) + 1;
    // One broken span can trip the parser twice (bad quote, then never closed): report it once.
    if (prev && end <= prev.end) prev.errors.push(describeParseError(err));
    else skipped.push({ end, errors: [describeParseError(err)] });
  });
  input.on('error', (err) => parser.destroy(err));
  let consumed = 1; // lines up to the end of the previous record (the header is line 1)
  /** Unreadable spans that end before `line`, each starting after what came before it. */
  function* spansBefore(line: number): Generator<RowEvent> {
    while (skipped.length && skipped[0]!.end < line) {
      const s = skipped.shift()!;
      yield { kind: 'bad', bad: { line: Math.min(consumed + 1, s.end), endLine: s.end, errors: s.errors } };
      consumed = Math.max(consumed, s.end);
    }
  }
  try {
    for await (const rec of input.pipe(parser) as AsyncIterable<{ record: Fields; raw: string }>) {
      const leading = /^(?:\r?\n)*/.exec(rec.raw)![0].split('\n').length - 1;
      const newlines = rec.raw.split('\n').length - 1;
      yield* spansBefore(consumed + leading + 1);
      const line = consumed + leading + 1;
      consumed += newlines + (rec.raw.endsWith('\n') ? 0 : 1);
      // bytes that are not UTF-8 (a Latin-1 export) were decoded as U+FFFD: the name would reach
      // the service garbled, so the row is refused like any other bad value
      if (rec.raw.includes('\uFFFD')) yield { kind: 'bad', bad: { line, errors: [NOT_UTF8] } };
      else yield { kind: 'row', row: { line, fields: rec.record } };
    }
  } catch (err) {
    const e = err as Error & { code?: string };
    if (e instanceof UsageError) throw e;
    if (e.code?.startsWith('CSV_')) throw new UsageError(`--from-csv: ${label}: ${describeParseError(e)}`);
    throw new UsageError(`--from-csv: cannot read ${label} (${e.code ?? e.message})`);
  }
  yield* spansBefore(Infinity);
  if (header === null)
    throw new UsageError(`--from-csv: ${label} is empty`, 'the first line names the columns, e.g. email,name');
}

function checkHeader(header: string[], label: string, onUnknown?: (names: string[]) => void): void {
  const missing = ['email', 'name'].filter((c) => !header.includes(c));
  if (missing.length)
    throw new UsageError(
      `--from-csv: ${label}: the header has no ${missing.join(' or ')} column (it has: ${headerNames(header)})`,
      `the first line names the columns: email,name and optionally ${Object.values(COLUMNS).slice(2).join(', ')}`,
    );
  const dup = header.find((h, i) => header.indexOf(h) !== i);
  if (dup) throw new UsageError(`--from-csv: ${label}: the column ${dup} appears twice in the header`);
  const known = new Set(Object.values(COLUMNS));
  const unknown = header.filter((h) => !known.has(h));
  if (unknown.length) onUnknown?.(unknown);
}

/** What the first line holds, as names: at most 10, each cut at 40 characters (the line may be anything, e.g. data). */
function headerNames(header: string[]): string {
  const shown = header
    .slice(0, 10)
    .map((h) =>
      /[\u0000-\u001f\u007f-\u009f]/.test(h)
        ? showValue(h, 40)
        : [...h].length > 40
          ? `${[...h].slice(0, 40).join('')}…`
          : h,
    );
  return `${shown.join(', ')}${header.length > 10 ? `, … (${header.length} in all)` : ''}`;
}

function describeParseError(err: Error & { code?: string }): string {
  switch (err.code) {
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
    case 'CSV_RECORD_INCONSISTENT_COLUMNS':
      return 'more fields than the header has columns (a comma in a value needs "quotes")';
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quote is never closed (the rest of the file is one field)';
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return 'broken quoting: a quoted field must end with " followed by a comma or the end of the line';
    default:
      return err.message.replace(/^Invalid Record Length: /, '');
  }
}

export type RowCheck = { ok: true; input: InviteInput; key: string } | { ok: false; errors: string[] };

/**
 * Validates one row as the single-invite command line it stands for. `defaults` are the raw
 * values of the command's own flags (e.g. --send-email, --link); a row's columns override them.
 */
export function checkRow(fields: Fields, testId: string, defaults: Record<string, unknown>): RowCheck {
  const raw: Record<string, unknown> = { ...defaults, testId };
  const errors: string[] = [];
  const email = (fields.email ?? '').trim();
  const name = (fields.name ?? '').trim();
  if (!email) errors.push('email: is empty');
  if (!name) errors.push('name: is empty');
  raw.email = email || undefined;
  raw.name = name || undefined;
  for (const [column, flag] of Object.entries(FLAG_OF)) if (fields[column]) raw[flag] = fields[column];
  const stake = fields.stakeholderEmails;
  if (stake) raw.stakeholders = stake.toLowerCase() === 'disable' ? false : stake;
  // every row: zod's compiled fast path pays here (src/util/parse-once.ts)
  const parsed = inviteSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '');
      if ((key === 'email' && !email) || (key === 'name' && !name)) continue;
      errors.push(
        `${COLUMN_OF[key] ?? key}: ${csvWords(ownWords(issue.message))}${fields[COLUMN_OF[key] ?? ''] ? ` (got ${showValue(fields[COLUMN_OF[key]!])})` : ''}`,
      );
    }
  }
  // a row's time zone must be an id: names are resolved through the service, once, for --tz only
  if (parsed.success && typeof parsed.data.tz === 'string')
    errors.push(
      `timeZoneId: must be a time zone id (a number) in the CSV, got ${showValue(parsed.data.tz)}; a name works as the default: --tz ${parsed.data.tz}`,
    );
  if (errors.length || !parsed.success) return { ok: false, errors };
  return { ok: true, input: parsed.data, key: inviteKey(testId, parsed.data.link, parsed.data.email!) };
}

/** The journal key of an invitation: one candidate (any e-mail case) on one link of one test. */
export function inviteKey(testId: string, link: string | undefined, email: string): string {
  return `${testId}|${link ?? 'default'}|${email.trim().toLowerCase()}`;
}

/**
 * Our messages start in lower case ("must be …", "is required …"); zod's own English ones
 * ("Invalid input: expected string, received number", "Too big: …") mean a value of a type no
 * column or flag gives, and are not shown to the user as they are.
 */
function ownWords(message: string): string {
  return /^(Invalid|Too (big|small)|Unrecognized)\b/.test(message)
    ? 'is not a value this column accepts (assess invite --help lists the columns)'
    : message;
}

/** The single-invite messages name flags; in a CSV the user thinks in columns. */
function csvWords(message: string): string {
  return message
    .replace(/--start\/--end/g, 'startDateTime/endDateTime')
    .replace(/--start\b/g, 'startDateTime')
    .replace(/--end\b/g, 'endDateTime')
    .replace(/--tz\b/g, 'timeZoneId')
    .replace(/--link\b/g, 'link')
    .replace(/--stakeholders\/--no-stakeholders/g, 'stakeholderEmails')
    .replace(/; use --no-stakeholders to turn them off/, "; use 'disable' to turn them off");
}
