// The header of an `invite --from-csv` file: which column holds what. Names are compared
// without case, spaces, punctuation or accents ("E-mail", "Email Address", "email_address" are
// one name); e-mail and name also answer to the usual spreadsheet headings, and first/last name
// columns are joined when there is no name column. `--columns email=<header>,…` says it outright.
import { UsageError } from '../../../errors.js';
import { plural } from '../../../util/plural.js';

/** Every column a row can fill, by the name the results file and the docs use. */
export const CANONICAL = [
  'email',
  'name',
  'firstName',
  'lastName',
  'callbackUrl',
  'redirectUrl',
  'startDateTime',
  'endDateTime',
  'timeZoneId',
  'stakeholderEmails',
  'link',
] as const;
export type Canonical = (typeof CANONICAL)[number];

/** `E-mail Address` → `emailaddress`; `Prénom` → `prenom`. */
export const foldHeading = (s: string): string =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

// Only e-mail and name get aliases: an optional column called "Start" or "Link" in someone's
// sheet may mean something else, and would silently change what is sent.
const ALIASES: Record<Canonical, string[]> = {
  email: ['email', 'emailaddress', 'mail', 'emailid', 'candidateemail', 'candidateemailaddress', 'candidateemailid'],
  name: ['name', 'fullname', 'candidatename', 'candidatefullname', 'displayname'],
  firstName: ['firstname', 'givenname', 'forename'],
  lastName: ['lastname', 'surname', 'familyname'],
  callbackUrl: ['callbackurl'],
  redirectUrl: ['redirecturl'],
  startDateTime: ['startdatetime'],
  endDateTime: ['enddatetime'],
  timeZoneId: ['timezoneid'],
  stakeholderEmails: ['stakeholderemails'],
  link: ['link'],
};
const BY_ALIAS = new Map(
  (Object.entries(ALIASES) as Array<[Canonical, string[]]>).flatMap(([c, names]) => names.map((n) => [n, c] as const)),
);
const BY_FOLDED_NAME = new Map(CANONICAL.map((c) => [foldHeading(c), c] as const));

/** `--columns email=E-mail,name=Full Name` as given: canonical column → the file's heading. */
export type ColumnMap = Partial<Record<Canonical, string>>;

/** Parses `--columns`; a message for the flag when it is not `column=heading,…`. */
export function parseColumnMap(text: string): ColumnMap | string {
  const map: ColumnMap = {};
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return `must be column=heading pairs, e.g. --columns "email=E-mail,name=Full Name" (got no = in one)`;
    const key = BY_FOLDED_NAME.get(foldHeading(part.slice(0, eq)));
    const heading = part.slice(eq + 1).trim();
    if (!key) return `names a column this command does not read (it reads ${CANONICAL.join(', ')})`;
    if (!heading) return `gives ${key} no heading, e.g. --columns "email=E-mail"`;
    if (map[key] !== undefined) return `maps ${key} twice`;
    map[key] = heading;
  }
  if (map.name !== undefined && (map.firstName !== undefined || map.lastName !== undefined))
    return 'maps name and also firstName/lastName: give one or the other';
  return map;
}

/**
 * The header's column names as csv-parse should key the records: a known column under its
 * canonical name, any other under a name no canonical one can take. Throws a usage error
 * (before anything is sent) when e-mail or name cannot be found, or is found twice.
 */
export function mapHeader(
  headings: string[],
  label: string,
  map: ColumnMap = {},
): { keys: string[]; unknown: string[]; joinNames: boolean } {
  const keys = headings.map((_, i) => `\u0000${i}`);
  const claimed = new Map<Canonical, number>();
  for (const [column, heading] of Object.entries(map) as Array<[Canonical, string]>) {
    const exact = headings.findIndex((h) => h.trim() === heading);
    const i = exact >= 0 ? exact : headings.findIndex((h) => foldHeading(h) === foldHeading(heading));
    if (i < 0)
      throw new UsageError(
        `--columns: ${label} has no column '${heading}' for ${column} (its columns: ${headingList(headings)})`,
        'give the heading as the first line spells it, e.g. --columns "email=E-mail,name=Full Name"',
      );
    claimed.set(column, i);
  }
  const taken = new Set(claimed.values());
  const found = new Map<Canonical, number[]>();
  headings.forEach((h, i) => {
    const c = BY_ALIAS.get(foldHeading(h));
    if (c === undefined || taken.has(i) || claimed.has(c)) return;
    found.set(c, [...(found.get(c) ?? []), i]);
  });
  for (const [c, at] of found) {
    if (at.length > 1)
      throw new UsageError(
        `--from-csv: ${label}: the columns ` +
          `${at.map((i) => `'${shownHeading(headings[i]!)}'`).join(' and ')} both read as ${c}`,
        `say which one: --columns "${c}=${shownHeading(headings[at[0]!]!)}" (or rename the other)`,
      );
    claimed.set(c, at[0]!);
  }
  // a name column wins over first and last name columns; those are then ignored
  const joinNames = !claimed.has('name') && (claimed.has('firstName') || claimed.has('lastName'));
  if (!joinNames) {
    claimed.delete('firstName');
    claimed.delete('lastName');
  }
  const missing = ['email', joinNames ? undefined : 'name'].filter((c) => c && !claimed.has(c as Canonical));
  if (missing.length)
    throw new UsageError(
      `--from-csv: ${label}: the header has no ${missing.join(' or ')} column (it has: ${headingList(headings)})`,
      'name them email and name (or E-mail, Email Address, Full Name, Candidate Name, First Name + Last Name), ' +
        'or map yours: --columns "email=<heading>,name=<heading>"',
    );
  for (const [c, i] of claimed) keys[i] = c;
  const unknown: string[] = [];
  const used = new Set<string>(CANONICAL);
  headings.forEach((h, i) => {
    if (!keys[i]!.startsWith('\u0000')) return;
    unknown.push(shownHeading(h));
    // kept under its own heading (the results file shows the row), unless that is a column's name
    if (!used.has(h.trim()) && h.trim()) keys[i] = h.trim();
    used.add(h.trim());
  });
  return { keys, unknown, joinNames };
}

/**
 * A heading as shown in a message. The first line may be anything (data, or a key file given by
 * mistake): a heading that does not look like a column name (digits inside, `@`, very long,
 * control characters) is never echoed.
 */
function shownHeading(h: string): string {
  return looksLikeHeading(h) ? h.trim() : '(not shown)';
}

export function looksLikeHeading(h: string): boolean {
  const t = h.trim();
  if (!t || [...t].length > 40) return false;
  // words of letters, with spaces and common punctuation (\u2019: ’); digits only at the end ("Email 2")
  if (!/^[\p{L}\p{M}][\p{L}\p{M} ._\-()/#&'\u2019]*\d{0,3}$/u.test(t)) return false;
  // one long word with no space is more like a token than a heading
  return t.includes(' ') || t.length <= 32;
}

/** At most 10 headings, those that do not look like one counted, not shown. */
export function headingList(headings: string[]): string {
  const shown = headings.filter(looksLikeHeading).map((h) => h.trim());
  const hidden = headings.length - shown.length;
  const list = shown.slice(0, 10).join(', ');
  const more = shown.length > 10 ? `, … (${headings.length} in all)` : '';
  if (!shown.length)
    return (
      `${plural(headings.length, 'value')} that ` +
      `${headings.length === 1 ? 'does' : 'do'} not look like column names, not shown`
    );
  const unshown = hidden && shown.length <= 10 ? ` and ${hidden} that do not look like column names, not shown` : '';
  return `${list}${more}${unshown}`;
}
