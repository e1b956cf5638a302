// Reading and validating the rows of `invite --csv`: csv-parse, streamed record by record (a
// 50,000-row file is never held in memory), every row checked with the same schema as the single
// invite, so a row is valid exactly when the equivalent `assess invite` command line would be.
// What the bytes are (encoding, delimiter) is csv-source.ts; which column is which, csv-header.ts.
// A message about a row names its line and the problem, never the row's text: the file may be
// anything (a key file given by mistake).
import { Readable } from 'node:stream';
import { UsageError } from '../../../errors.js';
import { inviteSchema, type InviteInput } from './body.js';
import { mapHeader, type ColumnMap } from './csv-header.js';
import { openCsvText, type CsvSource } from './csv-source.js';

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

const BREAK = /\r\n|\r|\n/;
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
/** `blank`: a row of empty cells (`,,`, spaces): no candidate, skipped and counted. */
export type RowEvent = { kind: 'row'; row: CsvRow } | { kind: 'bad'; bad: BadRow } | { kind: 'blank'; line: number };

export interface ReadOptions {
  /** Called once with the headings no column reads (shown as in messages). */
  onUnknownColumns?: (names: string[]) => void;
  /** `--columns`: column → heading. */
  columns?: ColumnMap;
}

/**
 * Streams the records of a CSV file as rows (with their first line number), blank rows or
 * unreadable spans, in file order. Line numbers are counted from each record's raw text rather
 * than csv-parse's `info`/`on_record` context objects, which cost ~30 MB of garbage on a
 * 50,000-row file.
 */
export async function* readCsvRows(input: Readable, label: string, opts: ReadOptions = {}): AsyncGenerator<RowEvent> {
  // Listen before the first await: a missing file fails while csv-parse is still loading, and an
  // 'error' without a listener would crash the process with a stack trace.
  let early: (Error & { code?: string }) | undefined;
  const onEarly = (err: Error) => (early ??= err);
  input.on('error', onEarly);
  const cannotRead = (e: Error & { code?: string }) =>
    new UsageError(`--from-csv: cannot read ${label} (${e.code ?? e.message})`);
  let source;
  try {
    source = await openCsvText(input, label);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw cannotRead(early ?? (err as Error));
  }
  const { parse } = await import('csv-parse');
  input.off('error', onEarly);
  if (early) throw cannotRead(early);
  const { parser, skipped, head } = csvParser(parse, source, label, opts);
  const text = Readable.from(source.chunks, { objectMode: false });
  text.on('error', (err) => parser.destroy(err));
  // lines up to the end of the previous record (the header is line 1, after any sep= line)
  let consumed = 1 + source.linesBefore;
  let records = 0;
  /** Skipped records that came before the next good one (all of them, at the end). */
  function* spansBefore(next: number): Generator<RowEvent> {
    while (skipped.length && skipped[0]!.before <= next) {
      const s = skipped.shift()!;
      if (s.blank) yield { kind: 'blank', line: s.end };
      else yield { kind: 'bad', bad: { line: Math.min(consumed + 1, s.end), endLine: s.end, errors: s.errors } };
      consumed = Math.max(consumed, s.end);
    }
  }
  try {
    for await (const rec of text.pipe(parser) as AsyncIterable<{ record: Fields; raw: string }>) {
      if (skipped.length) yield* spansBefore(records);
      records++;
      // csv-parse gives a record the empty and whitespace-only lines before it as part of its
      // text; its line break is LF, CRLF or (its own, with CRLF files) a bare CR
      const raw = rec.raw;
      const before = /^[ \t\r\n]/.test(raw) ? /^(?:[ \t]*(?:\r\n|\r|\n))*/.exec(raw)![0].split(BREAK).slice(0, -1) : [];
      for (const [i, l] of before.entries()) if (l) yield { kind: 'blank', line: consumed + i + 1 };
      const breaks = raw.includes('\r') ? raw.split(BREAK).length - 1 : countLf(raw);
      const line = consumed + before.length + 1;
      const last = raw.charCodeAt(raw.length - 1);
      consumed += breaks + (last === 10 || last === 13 ? 0 : 1);
      yield rowEvent(line, rec, head.hidden, head.joinNames);
    }
  } catch (err) {
    const e = err as Error & { code?: string };
    if (e instanceof UsageError) throw e;
    if (e.code?.startsWith('CSV_')) throw new UsageError(`--from-csv: ${label}: ${describeParseError(e)}`);
    throw cannotRead(e);
  }
  yield* spansBefore(Infinity);
  if (!head.read)
    throw new UsageError(`--from-csv: ${label} is empty`, 'the first line names the columns, e.g. email,name');
}

/** A record csv-parse skipped, with how many good records came before it (the order they came in). */
type Skipped = { end: number; errors: string[]; before: number; blank?: boolean };

/** csv-parse for this file: its delimiter, the header mapped (csv-header.ts), skipped records noted. */
function csvParser(
  parse: typeof import('csv-parse').parse,
  source: CsvSource,
  label: string,
  opts: ReadOptions,
): { parser: ReturnType<typeof import('csv-parse').parse>; skipped: Skipped[]; head: Head } {
  const head: Head = { read: false, joinNames: false, hidden: false };
  const skipped: Skipped[] = [];
  const parser = parse({
    delimiter: source.delimiter,
    trim: true,
    skip_empty_lines: true,
    raw: true,
    skip_records_with_error: true,
    relax_column_count_less: true, // trailing empty columns may be left out
    columns: (names: string[]) => {
      const mapped = mapHeader(names, label, opts.columns);
      Object.assign(head, { read: true, joinNames: mapped.joinNames });
      head.hidden = mapped.keys.some((k) => k.startsWith('\u0000'));
      if (mapped.unknown.length) opts.onUnknownColumns?.(mapped.unknown);
      return mapped.keys;
    },
  });
  parser.on('skip', (err: Error & { code?: string; lines?: number; record?: unknown }) => {
    const before = parser.info.records;
    const prev = skipped.at(-1);
    const end = err.lines === undefined ? (prev?.end ?? 1) + 1 : err.lines + source.linesBefore;
    // `,,,` under fewer columns is a blank row all the same, not a broken one
    if (Array.isArray(err.record) && err.record.every((v) => v === ''))
      return void skipped.push({ end, errors: [], before, blank: true });
    // One broken span can trip the parser twice (bad quote, then never closed): report it once.
    if (prev && !prev.blank && end <= prev.end) prev.errors.push(describeParseError(err));
    else skipped.push({ end, errors: [describeParseError(err)], before });
  });
  return { parser, skipped, head };
}

/** What the header said: whether there was one, first and last names to join, columns left out. */
interface Head {
  read: boolean;
  joinNames: boolean;
  hidden: boolean;
}

function countLf(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

function rowEvent(line: number, rec: { record: Fields; raw: string }, hidden: boolean, joinNames: boolean): RowEvent {
  // bytes that are not UTF-8 (a Latin-1 export) were decoded as U+FFFD: the name would reach
  // the service garbled, so the row is refused like any other bad value
  if (rec.raw.includes('\uFFFD')) return { kind: 'bad', bad: { line, errors: [NOT_UTF8] } };
  let blank = true;
  for (const k in rec.record)
    if (rec.record[k]) {
      blank = false;
      break;
    }
  if (blank) return { kind: 'blank', line };
  if (!hidden && !joinNames) return { kind: 'row', row: { line, fields: rec.record } };
  // a heading that could not keep its name (empty, or a column's name mapped elsewhere) is left out
  const fields: Fields = {};
  for (const [k, v] of Object.entries(rec.record)) if (!k.startsWith('\u0000') && v !== undefined) fields[k] = v;
  if (joinNames) {
    fields.name = [fields.firstName, fields.lastName].filter(Boolean).join(' ');
    delete fields.firstName;
    delete fields.lastName;
  }
  return { kind: 'row', row: { line, fields } };
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
    case 'INVALID_OPENING_QUOTE':
      return 'broken quoting: a quote inside a field that does not start with one (write "" for a quote)';
    case 'CSV_MAX_RECORD_SIZE':
      return 'a record too long to be a row';
    default:
      // csv-parse's own words may quote the field: only its code is shown
      return `cannot be read as CSV (${err.code ?? 'parse error'})`;
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
  const parsed = inviteSchema().safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '');
      if ((key === 'email' && !email) || (key === 'name' && !name)) continue;
      const column = COLUMN_OF[key] ?? key;
      errors.push(`${column}: ${withoutValue(csvWords(ownWords(issue.message)), fields[column])}`);
    }
  }
  // a row's time zone must be an id: names are resolved through the service, once, for --tz only
  if (parsed.success && typeof parsed.data.tz === 'string')
    errors.push(
      'timeZoneId: must be a time zone id (a number) in the CSV (assess timezones lists them); ' +
        'a name works as the default for every row: --tz Asia/Kolkata',
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

/**
 * A message without the row's value in it: the single-invite messages quote what was typed
 * (`'2026-02-30' is not a real date`), which for a row would be the file's text. Only where the
 * message quotes it: the same characters inside the message's own words (its example
 * `ann@example.com` for a row's `ann@example`) are left alone.
 */
function withoutValue(message: string, value: string | undefined): string {
  if (!value) return message;
  const own = (inner: string) => inner !== '' && value.includes(inner);
  let m = message.replace(/^'([^']*)' (?=is )/, (all, inner: string) => (own(inner) ? '' : all));
  m = m.replace(/ \(not an e-mail: ((?:'[^']*'(?:, )?)+)\)/, (_all, list: string) => {
    const n = list.match(/'[^']*'/g)?.length ?? 1;
    return ` (${n} of them ${n === 1 ? 'is' : 'are'} not)`;
  });
  // any other quotation of the whole value
  return m.replace(/'([^']+)'|"([^"]+)"/g, (all, a?: string, b?: string) =>
    [value, value.trim()].includes(a ?? b ?? '') ? '…' : all,
  );
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
