// `assess invite` (one candidate): e-mails, names, URLs, enums, stakeholders, and flags that
// conflict or are missing.
import { HUGE, INVITE_OK, type BadInput } from './types.js';

const inv = (...flags: string[]) => ['invite', '1001', ...flags];
const withName = (email: string) => inv('--email', email, '--name', 'Ann Lee');
const withEmail = (name: string) => inv('--email', 'ann@example.com', '--name', name);
const EMAIL = /--email: must be an e-mail address, e\.g\. ann@example\.com/;

export const emailCases: BadInput[] = [
  { name: 'e-mail without @', args: withName('notanemail'), expect: EMAIL },
  { name: 'e-mail with two @', args: withName('ann@@example.com'), expect: EMAIL },
  { name: 'empty e-mail', args: withName(''), expect: EMAIL },
  { name: 'e-mail with a space', args: withName('ann lee@example.com'), expect: EMAIL },
  {
    name: 'e-mail with an ESC sequence',
    args: withName('ann\u001b[31m@example.com'),
    expect: /--email: must be an e-mail address.*\\u001b/,
  },
  {
    name: 'e-mail with a line break (header injection)',
    args: withName('ann@example.com\nBcc: eve@example.com'),
    expect: EMAIL,
  },
  { name: 'e-mail of 100 KB', args: withName(`${HUGE}@example.com`), expect: /--email: must be an e-mail address.*…/ },
  { name: 'e-mail with angle brackets', args: withName('Ann <ann@example.com>'), expect: EMAIL },
];

const CONTROL = /--name: must not contain control characters/;
export const nameCases: BadInput[] = [
  { name: 'name with an ESC colour sequence', args: withEmail('Ann \u001b[31mRed'), expect: CONTROL },
  { name: 'name with an OSC title sequence', args: withEmail('Ann\u001b]0;pwned\u0007'), expect: CONTROL },
  { name: 'name with a tab (breaks TSV output)', args: withEmail('Ann\tLee'), expect: CONTROL },
  { name: 'name with a line break', args: withEmail('Ann\nLee'), expect: CONTROL },
  { name: 'name with a C1 control (CSI)', args: withEmail('Ann\u009b31m'), expect: CONTROL },
  {
    name: 'name of 100 KB (refused, not echoed whole)',
    args: withEmail(HUGE),
    expect: /--name: must be at most 200 characters \(got "a{79}… \(102400 characters\)\)/,
  },
  {
    name: 'name of 201 characters',
    args: withEmail('b'.repeat(201)),
    expect: /--name: must be at most 200 characters/,
  },
  { name: 'name of spaces only', args: withEmail('   '), expect: /--name: must not be empty/ },
];

const URL_MSG = 'must be an http\\(s\\) URL';
export const inviteFlagCases: BadInput[] = [
  { name: 'no --email', args: inv('--name', 'Ann Lee'), expect: /--email: is required/ },
  { name: 'neither', args: inv(), expect: /--email: is required.*--no-mandatory-fields/ },
  {
    name: 'no test id',
    args: ['invite', '--email', 'ann@example.com', '--name', 'Ann'],
    expect: /missing required argument 'testId'/,
  },
  {
    name: '--email without its value',
    args: inv('--name', 'Ann', '--email'),
    expect: /option '--email <email>' argument missing/,
  },
  {
    name: '--callback-url ftp://',
    args: inv(...INVITE_OK, '--callback-url', 'ftp://example.com/hook'),
    expect: new RegExp(`--callback-url: ${URL_MSG}`),
  },
  {
    name: '--callback-url javascript:',
    args: inv(...INVITE_OK, '--callback-url', 'javascript:alert(1)'),
    expect: new RegExp(`--callback-url: ${URL_MSG}`),
  },
  {
    name: '--callback-url file:',
    args: inv(...INVITE_OK, '--callback-url', 'file:///etc/passwd'),
    expect: new RegExp(`--callback-url: ${URL_MSG}`),
  },
  {
    name: '--redirect-url relative',
    args: inv(...INVITE_OK, '--redirect-url', '/thanks'),
    expect: new RegExp(`--redirect-url: ${URL_MSG}`),
  },
  {
    name: '--redirect-url with a space in the host',
    args: inv(...INVITE_OK, '--redirect-url', 'https://exa mple.com/'),
    expect: /--redirect-url: contains a space at position 12; encode a space as %20/,
  },
  {
    name: '--proctoring audio',
    args: inv(...INVITE_OK, '--proctoring', 'audio'),
    expect: /--proctoring: must be one of disabled, image, video/,
  },
  {
    name: '--image-proctoring 2',
    args: inv(...INVITE_OK, '--image-proctoring', '2'),
    expect: /--image-proctoring: must be 0 or 1/,
  },
  {
    name: '--stakeholders with an empty entry',
    args: inv(...INVITE_OK, '--stakeholders', 'hr@example.com,,x'),
    expect: /--stakeholders: must be comma-separated e-mail addresses.*not an e-mail: '', 'x'/,
  },
  {
    name: '--stakeholders separated by ;',
    args: inv(...INVITE_OK, '--stakeholders', 'a@example.com;b@example.com'),
    expect: /--stakeholders: must be comma-separated e-mail addresses/,
  },
  // alternatives (GUIDE: [--stakeholders LIST | --no-stakeholders]): the last one used to win silently
  {
    name: '--stakeholders with --no-stakeholders',
    args: inv(...INVITE_OK, '--stakeholders', 'hr@example.com', '--no-stakeholders'),
    expect:
      /--stakeholders and --no-stakeholders cannot be used together\n.*--stakeholders <list>, or --no-stakeholders/,
  },
  {
    name: '--no-stakeholders with --stakeholders=LIST',
    args: inv(...INVITE_OK, '--no-stakeholders', '--stakeholders=hr@example.com'),
    expect: /--stakeholders and --no-stakeholders cannot be used together/,
  },
  {
    name: 'bulk: --stakeholders with --no-stakeholders',
    args: ['invite', '1001', '--from-csv', 'c.csv', '--no-stakeholders', '--stakeholders', 'hr@example.com'],
    files: { 'c.csv': 'email,name\nann@example.com,Ann Lee\n' },
    expect: /--stakeholders and --no-stakeholders cannot be used together/,
  },
  {
    name: '--link with --stakeholders',
    args: inv(...INVITE_OK, '--link', '5002', '--stakeholders', 'hr@example.com'),
    expect: /--stakeholders: cannot be used with --link/,
  },
  {
    name: '--link with --proctoring',
    args: inv(...INVITE_OK, '--link', '5002', '--proctoring', 'video'),
    expect: /--proctoring: cannot be used with --link/,
  },
  {
    name: '--link with --start/--end',
    args: inv(...INVITE_OK, '--link', '5002', '--start', 'now', '--end', '7d'),
    expect: /--start: cannot be used with --link/,
  },
  {
    name: 'bulk --concurrency without --csv',
    args: inv(...INVITE_OK, '--concurrency', '4'),
    expect: /--concurrency: needs --from-csv FILE/,
  },
  {
    name: 'misspelt flag --emial',
    args: inv('--emial', 'ann@example.com', '--name', 'Ann'),
    expect:
      /unknown option '--emial' \(Did you mean --email\?\)\n {2}run 'assess invite --help' to see its arguments and options\n$/,
  },
  {
    name: 'output formats --json and --csv together',
    args: inv(...INVITE_OK, '--json', '--csv'),
    expect: /--json and --csv cannot be used together/,
  },
];
