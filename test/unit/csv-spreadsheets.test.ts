// What spreadsheets save, read as `invite --from-csv` rows: headings as people write them, the
// delimiter and Excel's `sep=` line, blank rows, byte order marks and UTF-16, `--columns`.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readCsvRows, checkRow, type RowEvent } from '../../src/commands/invite/shared/csv-rows.js';
import { looksLikeHeading, parseColumnMap, type ColumnMap } from '../../src/commands/invite/shared/csv-header.js';
import { sniffDelimiter } from '../../src/commands/invite/shared/csv-source.js';
import { UsageError } from '../../src/errors.js';

async function events(data: string | Buffer | Buffer[], columns?: ColumnMap): Promise<RowEvent[]> {
  const out: RowEvent[] = [];
  const chunks = Array.isArray(data) ? data : [data];
  for await (const e of readCsvRows(Readable.from(chunks), 'c.csv', { columns })) out.push(e);
  return out;
}
const rowsOf = (ev: RowEvent[]) => ev.flatMap((e) => (e.kind === 'row' ? [{ line: e.row.line, ...e.row.fields }] : []));
const failure = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UsageError);
  return err as UsageError;
};

describe('headings as spreadsheets spell them', () => {
  it.each([
    ['E-mail,Full Name'],
    ['Email Address,Candidate Name'],
    ['email_address,name'],
    ['E-MAIL ADDRESS,NAME'],
    ['Candidate E-mail,Candidate Full Name'],
  ])('%s', async (header) => {
    expect(rowsOf(await events(`${header}\nchloe@example.com,Chloé Martin\n`))).toEqual([
      { line: 2, email: 'chloe@example.com', name: 'Chloé Martin' },
    ]);
  });

  it('joins first and last name columns when there is no name column', async () => {
    const ev = await events('First Name,Last Name,E-mail\nAnn,Lee,ann@example.com\nBo,,bo@example.com\n');
    expect(rowsOf(ev)).toEqual([
      { line: 2, email: 'ann@example.com', name: 'Ann Lee' },
      { line: 3, email: 'bo@example.com', name: 'Bo' },
    ]);
  });

  it('a name column wins over first and last name, which are then ignored (and said)', async () => {
    const unknown: string[][] = [];
    const rows: RowEvent[] = [];
    const input = Readable.from(['Name,First Name,Last Name,Email\nAnn Lee,A,L,ann@example.com\n']);
    for await (const e of readCsvRows(input, 'c.csv', { onUnknownColumns: (n) => unknown.push(n) })) rows.push(e);
    expect(rowsOf(rows)[0]).toMatchObject({ name: 'Ann Lee', email: 'ann@example.com' });
    expect(unknown).toEqual([['First Name', 'Last Name']]);
  });

  it('two columns that both read as e-mail: refused, naming both and the fix', async () => {
    const err = await failure(events('Email,E-mail Address,Name\na@x.com,b@x.com,A\n'));
    expect(err.message).toBe("--from-csv: c.csv: the columns 'Email' and 'E-mail Address' both read as email");
    expect(err.hint).toMatch(/--columns "email=Email"/);
  });

  it('no e-mail column: the headings that look like headings are listed, anything else is not echoed', async () => {
    const err = await failure(events('Courriel,Nom\nann@example.com,Ann\n'));
    expect(err.message).toBe('--from-csv: c.csv: the header has no email or name column (it has: Courriel, Nom)');
    expect(err.hint).toMatch(/--columns "email=<heading>,name=<heading>"/);
    // a key file given by mistake: its one line is never shown
    const key = await failure(events('sk_sandbox_acme_7Hq2Lm9Xw4Tc\n'));
    expect(key.message).not.toContain('7Hq2');
    expect(key.message).toMatch(/1 value that does not look like column names, not shown/);
    const data = await failure(events('ann@example.com,Ann\n'));
    expect(data.message).not.toContain('ann@example.com');
    expect(data.message).toMatch(/\(it has: Ann and 1 that do not look like column names, not shown\)/);
  });

  it('looksLikeHeading: words, not tokens', () => {
    for (const h of ['E-mail', 'Full Name', 'Prénom', 'Email 2', 'timeZoneId', 'Notes (HR)', 'Candidate\u2019s e-mail'])
      expect(looksLikeHeading(h), h).toBe(true);
    for (const h of ['ann@example.com', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', '3f9a8b7c', '', 'x'.repeat(41), 'a\u0000b'])
      expect(looksLikeHeading(h), h).toBe(false);
  });
});

describe('--columns', () => {
  it('maps headings outright; other e-mail-like columns are then left alone', async () => {
    const ev = await events('Mail,Work Email,Nom complet\nann@home.example,ann@work.example,Ann Lee\n', {
      email: 'Work Email',
      name: 'nom complet', // any case and punctuation, like the headings themselves
    });
    expect(rowsOf(ev)).toEqual([{ line: 2, email: 'ann@work.example', name: 'Ann Lee', Mail: 'ann@home.example' }]);
  });

  it('an unknown heading is a usage error naming it and listing the headings', async () => {
    const err = await failure(events('E-mail,Full Name\na@x.com,A\n', { email: 'Courriel' }));
    expect(err.message).toBe("--columns: c.csv has no column 'Courriel' for email (its columns: E-mail, Full Name)");
  });

  it('its own syntax is checked before any file is read', () => {
    expect(parseColumnMap('email=Mail,name=Full Name')).toEqual({ email: 'Mail', name: 'Full Name' });
    expect(parseColumnMap('E-Mail=Mail,first_name=Vorname,lastName=Nachname')).toEqual({
      email: 'Mail',
      firstName: 'Vorname',
      lastName: 'Nachname',
    });
    expect(parseColumnMap('email')).toMatch(/must be column=heading pairs/);
    expect(parseColumnMap('phone=Tel')).toMatch(/names a column this command does not read/);
    expect(parseColumnMap('email=')).toMatch(/gives email no heading/);
    expect(parseColumnMap('email=A,email=B')).toMatch(/maps email twice/);
    expect(parseColumnMap('name=A,firstName=B')).toMatch(/give one or the other/);
  });
});

describe('delimiters, sep= and blank rows', () => {
  it('semicolons (European Excel) and tabs are sniffed from the header line', async () => {
    expect(rowsOf(await events('E-mail;Full Name\nann@example.com;Lee, Ann\n'))).toEqual([
      { line: 2, email: 'ann@example.com', name: 'Lee, Ann' },
    ]);
    expect(rowsOf(await events('email\tname\nann@example.com\tAnn\n'))).toEqual([
      { line: 2, email: 'ann@example.com', name: 'Ann' },
    ]);
    expect(sniffDelimiter('"a;b",c\n')).toBe(',');
    expect(sniffDelimiter('email\n')).toBe(',');
  });

  it("Excel's sep= first line is honoured and counted in line numbers", async () => {
    const ev = await events('sep=;\r\nemail;name\r\nann@example.com;Ann\r\nbad;Bo\r\n');
    expect(rowsOf(ev)).toEqual([
      { line: 3, email: 'ann@example.com', name: 'Ann' },
      { line: 4, email: 'bad', name: 'Bo' },
    ]);
    expect(rowsOf(await events('"sep=,"\nemail,name\na@x.com,A\n'))).toEqual([
      { line: 3, email: 'a@x.com', name: 'A' },
    ]);
  });

  it('rows of empty cells are blank (not invalid), each with its line', async () => {
    const ev = await events('email,name\nann@example.com,Ann\n,,\n  ,  \n   \nbo@example.com,Bo\n');
    expect(ev.filter((e) => e.kind === 'blank').map((e) => (e as { line: number }).line)).toEqual([3, 4, 5]);
    expect(rowsOf(ev).map((r) => r.line)).toEqual([2, 6]);
  });
});

describe('encodings', () => {
  const TEXT = 'E-mail,Full Name\nchloé@example.com,Chloé Martin\n';
  const WANT = [{ line: 2, email: 'chloé@example.com', name: 'Chloé Martin' }];
  const utf16be = (s: string) => Buffer.from(s, 'utf16le').swap16();

  it('UTF-8 with and without a byte order mark', async () => {
    expect(rowsOf(await events(TEXT))).toEqual(WANT);
    expect(rowsOf(await events(`\uFEFF${TEXT}`))).toEqual(WANT);
  });

  it('UTF-16LE and UTF-16BE with a byte order mark, also split at odd bytes', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(TEXT, 'utf16le')]);
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(TEXT)]);
    expect(rowsOf(await events(le))).toEqual(WANT);
    expect(rowsOf(await events(be))).toEqual(WANT);
    // chunks that end inside a character (as a file read in 4 KB pieces may)
    const pieces = (b: Buffer) => [b.subarray(0, 5), b.subarray(5, 40), b.subarray(40, 41), b.subarray(41)];
    expect(rowsOf(await events(pieces(be)))).toEqual(WANT);
    expect(rowsOf(await events(pieces(le)))).toEqual(WANT);
  });

  it('refused by name: UTF-32, UTF-16 without a mark, binary', async () => {
    const utf32 = Buffer.from([0xff, 0xfe, 0, 0, 0x65, 0, 0, 0]);
    expect((await failure(events(utf32))).message).toBe(
      '--from-csv: c.csv is UTF-32 text, which this command does not read',
    );
    expect((await failure(events(Buffer.from(TEXT, 'utf16le')))).message).toMatch(
      /looks like UTF-16 text without a byte order mark/,
    );
    expect((await failure(events(Buffer.from([0, 1, 2, 0x1b, 0x5b, 0x32, 0x4a, 0xff, 0x0a])))).message).toMatch(
      /is not a text file \(it has NUL bytes\)/,
    );
  });

  it('a Latin-1 row is refused by line, without its text', async () => {
    const latin1 = Buffer.concat([
      Buffer.from('email,name\nzoe@example.com,Zo'),
      Buffer.from([0xeb]),
      Buffer.from('\n'),
    ]);
    const bad = (await events(latin1)).find((e) => e.kind === 'bad');
    expect(bad).toEqual({ kind: 'bad', bad: { line: 2, errors: [expect.stringMatching(/not UTF-8 text/)] } });
  });
});

describe('row messages name the line and the problem, never the value', () => {
  it('bad values are described, not quoted', () => {
    const r = checkRow(
      {
        email: 'not-an-email',
        name: 'x'.repeat(300),
        startDateTime: '2026-02-30',
        endDateTime: '2026-03-05',
        stakeholderEmails: 'hr@example.com,secret-token',
      },
      '1001',
      {},
    );
    expect(r.ok).toBe(false);
    const text = !r.ok ? r.errors.join('; ') : '';
    expect(text).toMatch(/email: must be an e-mail address/);
    expect(text).toMatch(/startDateTime: is not a real date/);
    expect(text).toMatch(/stakeholderEmails: must be comma-separated e-mail addresses.*\(1 of them is not\)/);
    for (const v of ['not-an-email', 'xxxxxxxxxx', '2026-02-30', 'secret-token']) expect(text).not.toContain(v);
  });

  it('a UTF-8 local part is an e-mail address, as on the command line', () => {
    const r = checkRow({ email: 'chloé@example.com', name: 'Chloé' }, '1001', {});
    expect(r.ok && r.input.email).toBe('chloé@example.com');
    // decomposed (e + U+0301, as some systems paste it) is the same address
    const nfd = checkRow({ email: 'chloe\u0301@example.com', name: 'Chloé' }, '1001', {});
    expect(nfd.ok && nfd.input.email).toBe('chloé@example.com');
  });
});
