// `assess invite <testId> --csv FILE|-`: files that cannot be read, headers without the needed
// columns, broken quoting, rows with bad values (reported with their line numbers, nothing sent),
// and the bulk flags' own rules.
import { HUGE, INVITE_OK, PIPED_KEY, twoStdinReaders, type BadInput } from './types.js';

const bulk = (...flags: string[]) => ['invite', '1001', '--csv', 'c.csv', ...flags];
const csv = (text: string | Buffer, ...flags: string[]): Pick<BadInput, 'args' | 'files'> => ({
  args: bulk(...flags),
  files: { 'c.csv': text },
});
const BOM = '\uFEFF';
/** Compressed bytes as a zip or an OLE file holds them: no NUL, few control bytes. */
const XLSX_TAIL = Buffer.from(Array.from({ length: 600 }, (_, i) => 0x21 + ((i * 37) % 0xde)));
/** Bytes of a picture or an archive: one control byte in 16. */
const BINARY = Buffer.from(Array.from({ length: 600 }, (_, i) => (i % 16 ? 0x21 + ((i * 37) % 0xde) : i % 5)));
const GOOD = 'ann@example.com,Ann Lee\nbo@example.com,Bo Chen\n';
/** The one bad row, or the first of several: named on the error's line with its problem. */
const badRow = (line: number, what: string) =>
  new RegExp(
    `^error: --from-csv: (c\\.csv, |\\d+ bad rows in c\\.csv \\(lines [^)]*\\); nothing was sent; )line ` +
      `${line}: ${what}`,
    'm',
  );

export const csvFileCases: BadInput[] = [
  { name: 'missing file', args: bulk(), expect: /--from-csv: cannot read c\.csv \(ENOENT\)/ },
  {
    name: 'a directory',
    args: ['invite', '1001', '--csv', 'dir'],
    files: { 'dir/x': '' },
    expect: /--from-csv: cannot read dir \(EISDIR\)/,
  },
  { name: 'empty file', ...csv(''), expect: /--from-csv: c\.csv is empty/ },
  { name: 'only a byte order mark', ...csv(BOM), expect: /--from-csv: c\.csv is empty/ },
  {
    name: 'empty standard input',
    args: ['invite', '1001', '--csv', '-'],
    stdin: '',
    expect: /--from-csv: standard input is empty/,
  },
  {
    name: 'no header (first row is data)',
    ...csv('ann@example.com,Ann\n'),
    expect:
      /--from-csv: c\.csv: the header has no email or name column \(it has: Ann and 1 that do not look like column names, not shown\)/,
  },
  {
    name: 'wrong column names',
    ...csv('courriel,nom complet\nann@example.com,Ann\n'),
    expect:
      /the header has no email or name column \(it has: courriel, nom complet\)\n.*--columns "email=<heading>,name=<heading>"/,
  },
  {
    name: 'a long header that is not one: none of it shown',
    ...csv(`${Array.from({ length: 15 }, (_, i) => `c${i}${'x'.repeat(60)}`).join(',')}\n`),
    expect: /\(it has: 15 values that do not look like column names, not shown\)\n/,
  },
  {
    name: 'a column twice',
    ...csv('email,name,EMAIL\nann@example.com,Ann,bo@example.com\n'),
    expect: /the columns 'email' and 'EMAIL' both read as email\n.*--columns "email=email"/,
  },
  {
    name: 'binary garbage (nothing of it shown)',
    ...csv(Buffer.from([0, 1, 2, 0x1b, 0x5b, 0x32, 0x4a, 0xff, 0xfe, 0x0a])),
    expect: /error: --from-csv: c\.csv is not a text file \(it has NUL bytes\)\n/,
  },
  {
    name: 'an Excel workbook (.xlsx: a zip)',
    ...csv(Buffer.concat([Buffer.from('PK\x03\x04\x14\x00\x06\x00\x08\x00[Content_Types].xml', 'latin1'), XLSX_TAIL])),
    expect: /^error: --from-csv: c\.csv is an Excel workbook, not a CSV\n {2}in Excel: File › Save As › CSV UTF-8/m,
  },
  {
    name: 'an Excel 97-2003 workbook (.xls)',
    ...csv(Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), XLSX_TAIL])),
    expect: /^error: --from-csv: c\.csv is an Excel workbook, not a CSV\n {2}in Excel: File › Save As › CSV UTF-8/m,
  },
  {
    name: 'an OpenDocument spreadsheet (.ods)',
    ...csv(Buffer.from('PK\x03\x04\x14\x00\x00\x08mimetypeapplication/vnd.oasis.opendocument.spreadsheetPK', 'latin1')),
    expect: /^error: --from-csv: c\.csv is an OpenDocument spreadsheet, not a CSV\n {2}in LibreOffice: File › Save As/m,
  },
  {
    name: 'a PDF',
    ...csv('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'),
    expect: /^error: --from-csv: c\.csv is a PDF, not a CSV\n {2}export the list as CSV UTF-8/m,
  },
  {
    name: 'a picture (other binary: a control byte in 16)',
    ...csv(Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR', 'latin1'), BINARY])),
    expect: /^error: --from-csv: c\.csv is not a text file \(it has NUL bytes\)\n {2}save it as "CSV UTF-8"/m,
  },
  {
    name: 'UTF-32 with a byte order mark',
    ...csv(Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from('e\0\0\0', 'latin1')])),
    expect: /--from-csv: c\.csv is UTF-32 text, which this command does not read\n.*CSV UTF-8/,
  },
  {
    name: 'UTF-16 without a byte order mark',
    ...csv(Buffer.from(`email,name\n${GOOD}`, 'utf16le')),
    expect: /--from-csv: c\.csv looks like UTF-16 text without a byte order mark/,
  },
  {
    name: '--columns naming a heading the file does not have',
    ...csv(`E-mail,Full Name\n${GOOD}`, '--columns', 'email=Courriel'),
    expect: /error: --columns: c\.csv has no column 'Courriel' for email \(its columns: E-mail, Full Name\)\n/,
  },
  {
    name: '--columns without a heading',
    ...csv(`email,name\n${GOOD}`, '--columns', 'email'),
    expect: /error: --columns: must be column=heading pairs/,
  },
  {
    name: '--columns naming a column invite does not read',
    ...csv(`email,name\n${GOOD}`, '--columns', 'phone=Tel'),
    expect: /error: --columns: names a column this command does not read \(it reads email, name, firstName/,
  },
  {
    name: '--columns without --from-csv',
    args: ['invite', '1001', ...INVITE_OK, '--columns', 'email=Mail'],
    expect: /^error: --columns: needs --from-csv FILE/,
  },
  {
    name: '--csv with an empty name',
    args: ['invite', '1001', '--csv', ''],
    expect: /--csv: must name a CSV file, or - for standard input/,
  },
  {
    name: '--from-csv with an empty name',
    args: ['invite', '1001', '--from-csv', ''],
    expect: /--from-csv: must name a CSV file, or - for standard input/,
  },
  {
    name: 'CSV file given as an operand',
    args: ['invite', '1001', 'c.csv'],
    files: { 'c.csv': `email,name\n${GOOD}` },
    expect: /unexpected argument 'c\.csv'[\s\S]*assess invite 1001 --from-csv c\.csv/,
  },
  {
    name: 'CSV file as an operand after single-invite flags (not read as --from-csv)',
    args: ['invite', '1001', '--email', 'ann@example.com', '--name', 'Ann Lee', 'c.csv'],
    files: { 'c.csv': `email,name\n${GOOD}` },
    expect:
      /^error: unexpected argument 'c\.csv'\n {2}to invite everyone in a CSV file: assess invite 1001 --from-csv c\.csv\n$/,
  },
  {
    name: 'a second word that is no CSV',
    args: ['invite', '1001', '1002', ...INVITE_OK],
    expect: /^error: unexpected argument '1002': invite takes one, the test id\n/,
  },
];

export const csvRowCases: BadInput[] = [
  {
    name: 'bad e-mail on line 4',
    ...csv(`email,name\n${GOOD}not-an-email,Cy\n`),
    expect: badRow(4, 'email: must be an e-mail address, e\\.g\\. ann@example\\.com(;|\\n)'),
  },
  {
    name: 'BOM, then a bad e-mail on line 2',
    ...csv(`${BOM}email,name\nbad,Ann\n`),
    expect: badRow(2, 'email: must be an e-mail address'),
  },
  {
    name: 'CRLF line ends, bad e-mail on line 3',
    ...csv('email,name\r\nann@example.com,Ann\r\nbo@,Bo\r\n'),
    expect: badRow(3, 'email: must be an e-mail address'),
  },
  // a Latin-1 export (Excel's plain "CSV"): the name would reach the service as "Zo\uFFFD"
  {
    name: 'a Latin-1 name on line 3',
    ...csv(
      Buffer.concat([
        Buffer.from(`email,name\n${GOOD.split('\n')[0]}\nzoe@example.com,Zo`),
        Buffer.from([0xeb]),
        Buffer.from(' Lat\n'),
      ]),
    ),
    expect: badRow(3, 'has bytes that are not UTF-8 text'),
  },
  {
    name: 'a quote never closed',
    ...csv(`email,name\n${GOOD}"cy@example.com,Cy\n`),
    expect: badRow(4, 'a quote is never closed'),
  },
  {
    name: 'text after a closing quote',
    ...csv('email,name\n"ann@example.com"x,Ann\n'),
    expect: badRow(2, 'broken quoting'),
  },
  {
    name: 'more fields than columns (unquoted comma)',
    ...csv('email,name\nann@example.com,Lee, Ann\n'),
    expect: badRow(2, 'more fields than the header has columns'),
  },
  { name: 'empty e-mail', ...csv('email,name\n,Ann\n'), expect: badRow(2, 'email: is empty(;|\\n)') },
  {
    name: 'empty name, and a value in an unknown column',
    ...csv('email,name,notes\nann@example.com,,x\n'),
    expect: badRow(2, 'name: is empty(;|\\n)'),
  },
  {
    name: 'NUL inside a quoted name',
    ...csv('email,name\nann@example.com,"An\u0000n"\n'),
    expect: badRow(2, 'name: must not contain control characters \\(NUL, ESC, line breaks, …\\)(;|\\n)'),
  },
  {
    name: 'ESC sequence in a name',
    ...csv('email,name\nann@example.com,Ann \u001b[31mRed\n'),
    expect: badRow(2, 'name: must not contain control characters'),
  },
  {
    name: 'line break inside a quoted name',
    ...csv('email,name\nann@example.com,"Ann\nLee"\n'),
    expect: badRow(2, 'name: must not contain control characters'),
  },
  {
    name: 'a 100 KB name',
    ...csv(`email,name\nann@example.com,${HUGE}\n`),
    expect: badRow(2, 'name: must be at most 200 characters(;|\\n)'),
  },
  {
    name: 'timeZoneId 1.5',
    ...csv('email,name,timeZoneId\nann@example.com,Ann,1.5\n'),
    expect: badRow(2, 'timeZoneId: must be a time zone id or name'),
  },
  {
    name: 'startDateTime 2026-02-30',
    ...csv('email,name,startDateTime,endDateTime\nann@example.com,Ann,2026-02-30,2026-03-05\n'),
    expect: badRow(2, 'startDateTime: is not a real date(;|\\n)'),
  },
  {
    name: 'endDateTime before startDateTime',
    ...csv('email,name,startDateTime,endDateTime\nann@example.com,Ann,2030-03-05,2030-03-01\n'),
    expect: badRow(2, 'endDateTime: must be after startDateTime'),
  },
  {
    name: 'callbackUrl not http(s)',
    ...csv('email,name,callbackUrl\nann@example.com,Ann,ftp://example.com/h\n'),
    expect: badRow(2, 'callbackUrl: must be an http\\(s\\) URL'),
  },
  {
    name: 'link 2^63',
    ...csv('email,name,link\nann@example.com,Ann,9223372036854775808\n'),
    expect: badRow(2, 'link: is larger than a 64-bit integer'),
  },
  {
    name: 'stakeholderEmails with a bad address',
    ...csv('email,name,stakeholderEmails\nann@example.com,Ann,"hr@example.com,nope"\n'),
    expect: badRow(2, 'stakeholderEmails: must be comma-separated e-mail addresses.* \\(1 of them is not\\);'),
  },
  {
    name: 'bad row on standard input',
    args: ['invite', '1001', '--csv', '-'],
    stdin: 'email,name\nann@example.com,Ann\nbad,Bo\n',
    expect: /^error: --from-csv: standard input, line 3: email: .*; nothing was sent\n {2}fix the row/m,
  },
];

export const csvFlagCases: BadInput[] = [
  {
    name: '--concurrency 0',
    ...csv(`email,name\n${GOOD}`, '--concurrency', '0'),
    expect: /--concurrency: must be at least 1/,
  },
  {
    name: '--concurrency 65',
    ...csv(`email,name\n${GOOD}`, '--concurrency', '65'),
    expect: /--concurrency: must be at most 64/,
  },
  {
    name: '--results equal to --journal',
    ...csv(`email,name\n${GOOD}`, '--journal', 'j.ndjson', '--results', 'j.ndjson'),
    expect: /--results: must differ from --journal/,
  },
  {
    name: '--email with --csv',
    ...csv(`email,name\n${GOOD}`, '--email', 'ann@example.com'),
    expect: /--email: cannot be used with --from-csv/,
  },
  {
    name: '--no-mandatory-fields with --csv',
    ...csv(`email,name\n${GOOD}`, '--no-mandatory-fields'),
    expect: /--no-mandatory-fields: cannot be used with --from-csv/,
  },
  {
    name: 'a bad default flag for every row (--tz 1.5)',
    ...csv(`email,name\n${GOOD}`, '--tz', '1.5'),
    expect: /--tz: must be a time zone id or name/,
  },
  // the key would be read as the CSV's header (and echoed in its error), or the CSV as the key
  {
    name: '--key-stdin with --from-csv -',
    args: ['--key-stdin', 'invite', '1001', '--from-csv', '-'],
    stdin: `${PIPED_KEY}email,name\n${GOOD}`,
    expect: twoStdinReaders('--from-csv -'),
  },
  {
    name: '--key-stdin with --csv - (old spelling)',
    args: ['invite', '1001', '--csv', '-', '--key-stdin'],
    stdin: PIPED_KEY,
    expect: twoStdinReaders('<csvFile> -'),
  },
  {
    name: 'a bad default flag for every row (--callback-url)',
    ...csv(`email,name\n${GOOD}`, '--callback-url', 'hook'),
    expect: /--callback-url: must be an http\(s\) URL/,
  },
];
