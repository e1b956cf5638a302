// Text that parses but is not what it seems: URLs with control characters or white space (the URL
// parser drops tabs and line breaks and trims the ends, so they were sent changed or verbatim),
// values that are not UTF-8 (Node hands them over with U+FFFD), at every place that takes one;
// and the commands no other group reaches, each with a value it refuses.
import { esc, INVITE_OK, type BadInput } from './types.js';

interface UrlPlace {
  where: string;
  flag: string;
  build: (url: string) => Pick<BadInput, 'args' | 'env' | 'files' | 'stdin'>;
}

const WINDOW = ['--start', 'now', '--end', '7d', '--tz', '1'];
const SANDBOX_VERBS = ['requests', 'reset', 'openapi', 'outbox', 'deliveries', 'faults', 'quirks', 'clock'] as const;

const URL_PLACES: UrlPlace[] = [
  {
    where: 'invite',
    flag: '--callback-url',
    build: (u) => ({ args: ['invite', '1001', ...INVITE_OK, '--callback-url', u] }),
  },
  {
    where: 'invite',
    flag: '--redirect-url',
    build: (u) => ({ args: ['invite', '1001', ...INVITE_OK, '--redirect-url', u] }),
  },
  {
    where: 'reattempt',
    flag: '--callback-url',
    build: (u) => ({ args: ['reattempt', '900001', ...WINDOW, '--callback-url', u] }),
  },
  {
    where: 'reattempt',
    flag: '--redirect-url',
    build: (u) => ({ args: ['reattempt', '900001', ...WINDOW, '--redirect-url', u] }),
  },
  {
    where: 'callbacks listen',
    flag: '--forward-to',
    build: (u) => ({ args: ['callbacks', 'listen', '--forward-to', u] }),
  },
  { where: 'callbacks replay', flag: '--to', build: (u) => ({ args: ['callbacks', 'replay', '900001', '--to', u] }) },
  {
    where: 'auth login',
    flag: '--base-url',
    build: (u) => ({ args: ['auth', 'login', '--key-stdin', '--base-url', u], stdin: 'sk_x_1234567890' }),
  },
  {
    where: 'auth login',
    flag: '--base-url-v2',
    build: (u) => ({
      args: ['auth', 'login', '--key-stdin', '--base-url', 'http://127.0.0.1:9', '--base-url-v2', u],
      stdin: 'sk_x_1234567890',
    }),
  },
  { where: 'config set', flag: 'base-url', build: (u) => ({ args: ['config', 'set', 'base-url', u] }) },
  { where: 'config set', flag: 'base-url-v2', build: (u) => ({ args: ['config', 'set', 'base-url-v2', u] }) },
  {
    where: 'tests list',
    flag: 'ASSESS_BASE_URL',
    build: (u) => ({ args: ['tests', 'list'], env: { ASSESS_BASE_URL: u } }),
  },
  {
    where: 'tests list --api v2',
    flag: 'ASSESS_BASE_URL_V2',
    build: (u) => ({ args: ['--api', 'v2', 'tests', 'list'], env: { ASSESS_BASE_URL_V2: u } }),
  },
  ...SANDBOX_VERBS.map((verb) => ({
    where: `sandbox ${verb}`,
    flag: '--url',
    build: (u: string) => ({ args: ['sandbox', verb, '--url', u] }),
  })),
];

/** [URL, what the message names]: two per place, rotating. */
const BAD_URLS: Array<[string, string]> = [
  ['https://hooks.example/a\r\nX-Injected: 1', 'a carriage return \\(CR\\) at position 24'],
  ['https://hooks.example/a b', 'a space at position 24; encode a space as %20'],
  ['https://hooks.example/\tx', 'a tab at position 23'],
  ['https://hooks.example/x\ny', 'a line break \\(LF\\) at position 24'],
  ['https://hooks.example/\u0000', 'a NUL at position 23'],
  ['https://hooks.example/\u001b[2J', 'an escape character \\(ESC\\) at position 23'],
  ['https://hooks\u00a0.example/', 'the character U\\+00A0 at position 14'],
  ['https://hooks.example/\u2028x', 'the character U\\+2028 at position 23'],
  ['https://hooks.example/\u200bx', 'the character U\\+200B at position 23'],
  ['https://hooks.example/\u007f', 'the character U\\+007F at position 23'],
];

export const urlCases: BadInput[] = URL_PLACES.flatMap((p, i) =>
  [0, 1].map((k) => {
    const [url, problem] = BAD_URLS[(i * 2 + k) % BAD_URLS.length]!;
    return {
      name: `${p.where} ${p.flag} ${JSON.stringify(url)}`,
      ...p.build(url),
      expect: new RegExp(`^error: ${esc(p.flag)}(?: \\([^)]*\\))?: .*contains ${problem}`, 'm'),
    };
  }),
);

/** In a CSV the column is the place: the row is refused with its line. */
urlCases.push({
  name: 'invite --from-csv: callbackUrl with a space',
  args: ['invite', '1001', '--from-csv', 'c.csv'],
  files: { 'c.csv': 'email,name,callbackUrl\nann@example.com,Ann,https://hooks.example/a b\n' },
  expect: /^error: --from-csv: c\.csv, line 2: callbackUrl: contains a space at position 24/m,
});

const R = '\ufffd'; // what Node makes of a byte that is not UTF-8 (`$'Ren\xe9e'`)

/** [what, command line with one value not UTF-8, the flag named]. */
const NOT_UTF8: Array<[string, string[], string]> = [
  ['invite --name', ['invite', '1001', '--email', 'ann@example.com', '--name', `Ren${R}e`], '--name'],
  ['invite --email', ['invite', '1001', '--email', `ren${R}e@example.com`, '--name', 'Renee'], '--email'],
  ['invite <testId>', ['invite', `100${R}`, ...INVITE_OK], '<testId>'],
  ['invite --stakeholders', ['invite', '1001', ...INVITE_OK, '--stakeholders', `h${R}@x.example`], '--stakeholders'],
  ['invite --tz', ['invite', '1001', ...INVITE_OK, '--tz', `Asia/K${R}lkata`], '--tz'],
  ['invite --from-csv (the path)', ['invite', '1001', '--from-csv', `r${R}.csv`], '--from-csv'],
  ['links create --name', ['links', 'create', '1001', '--name', `Caf${R}`, '--valid-days', '7', '--tz', '1'], '--name'],
  ['links update --name', ['links', 'update', '1001', '5001', '--name', `Caf${R}`], '--name'],
  ['report stats --test', ['report', 'stats', '--test', `100${R}`], '--test'],
  ['tests get <testId>', ['tests', 'get', `1${R}`], '<testId>'],
  ['attempts list --state', ['attempts', 'list', '--state', `complet${R}`], '--state'],
  ['attempts wait --until', ['attempts', 'wait', '900001', '--until', `complet${R}`], '--until'],
  ['report --pdf -o', ['report', '900001', '--pdf', '-o', `r${R}.pdf`], '--output'],
  ['report export --out', ['report', 'export', '--out', `d${R}r`], '--out'],
  ['report stats --from', ['report', 'stats', '--from', `2026-03-01${R}`], '--from'],
  ['settings set --set', ['settings', 'set', '1001', '--set', `testSettings.testName=Caf${R}`, '--dry-run'], '--set'],
  ['settings set --file', ['settings', 'set', '1001', '--file', `s${R}.json`, '--dry-run'], '--file'],
  ['config set <value>', ['config', 'set', 'tz', `Asia/K${R}lkata`], '<value>'],
  ['callbacks listen --exec', ['callbacks', 'listen', '--exec', `echo caf${R}`], '--exec'],
  ['callbacks listen --token', ['callbacks', 'listen', '--token', `t${R}k`], '--token'],
  ['callbacks verify --secret-file', ['callbacks', 'verify', 'body.json', '--secret-file', `s${R}`], '--secret-file'],
  ['callbacks inbox --status', ['callbacks', 'inbox', '--status', `complet${R}`], '--status'],
  ['timezones --search', ['timezones', '--search', `K${R}lkata`], '--search'],
  ['api <path>', ['api', 'GET', `/v3/tests/${R}`], '<path>'],
  ['api --data', ['api', 'POST', '/v3/callbacks/process', '--data', `{"name":"Ren${R}e"}`], '--data'],
  ['--profile (global)', ['--profile', `ren${R}e`, 'tests', 'list'], '--profile'],
  ['--json fields (global)', ['tests', 'list', '--json', `test${R}d`], '--json'],
  ['--query (global)', ['tests', 'list', '--query', `[].caf${R}`], '--query'],
  ['sandbox serve --state', ['sandbox', 'serve', '--state', `st${R}te.json`], '--state'],
  ['mcp --allow-writes', ['mcp', '--allow-writes', `invit${R}`], '--allow-writes'],
];

export const notUtf8Cases: BadInput[] = NOT_UTF8.map(([what, args, flag]) => ({
  name: `not UTF-8: ${what}`,
  args,
  expect: new RegExp(`^error: ${esc(flag)}: ".*\\\\ufffd.*" is not UTF-8 text[^\\n]*\\n {2}give it in UTF-8`, 'm'),
}));

/** The commands no other group reaches: each with something it refuses. */
export const everyCommandCases: BadInput[] = [
  { name: 'auth list: an argument', args: ['auth', 'list', 'ci'], expect: /too many arguments for 'list'/ },
  { name: 'auth list: unknown flag', args: ['auth', 'list', '--all'], expect: /unknown option '--all'/ },
  { name: 'auth logout: an argument', args: ['auth', 'logout', 'ci'], expect: /too many arguments for 'logout'/ },
  { name: 'auth status: an argument', args: ['auth', 'status', 'ci'], expect: /too many arguments for 'status'/ },
  { name: 'config get: unknown key', args: ['config', 'get', 'colour'], expect: /<key>: must be one of base-url,/ },
  { name: 'config get: no key', args: ['config', 'get'], expect: /missing required argument 'key'/ },
  { name: 'config unset: unknown key', args: ['config', 'unset', 'colour'], expect: /<key>: must be one of base-url,/ },
  { name: 'config unset: no key', args: ['config', 'unset'], expect: /missing required argument 'key'/ },
  { name: 'config list: an argument', args: ['config', 'list', 'tz'], expect: /too many arguments for 'list'/ },
  {
    name: 'callbacks inbox --since a word',
    args: ['callbacks', 'inbox', '--since', 'someday'],
    expect: /--since: 'someday' is not a time/,
  },
  {
    name: 'callbacks inbox --status empty',
    args: ['callbacks', 'inbox', '--status', ''],
    expect: /--status: must be a status/,
  },
  {
    name: 'callbacks reconcile --cooldown forever',
    args: ['callbacks', 'reconcile', '--cooldown', 'forever'],
    expect: /--cooldown: must be a duration like 1h/,
  },
  {
    name: 'callbacks reconcile --state started',
    args: ['callbacks', 'reconcile', '--state', 'started'],
    expect: /--state: must be completed/,
  },
  {
    name: 'callbacks reconcile --from 2026-02-30',
    args: ['callbacks', 'reconcile', '--from', '2026-02-30'],
    expect: /--from: '2026-02-30' is not a real date/,
  },
  { name: 'timezones --search empty', args: ['timezones', '--search', ''], expect: /--search: must not be empty/ },
  { name: 'timezones: an argument', args: ['timezones', 'Kolkata'], expect: /too many arguments for 'timezones'/ },
  {
    name: 'sandbox start --port 99999',
    args: ['sandbox', 'start', '--port', '99999'],
    expect: /--port: must be at most 65535/,
  },
  {
    name: 'sandbox start --rate-limit fast',
    args: ['sandbox', 'start', '--rate-limit', 'fast'],
    expect: /--rate-limit: 'fast' is not a rate/,
  },
  { name: 'sandbox status: an argument', args: ['sandbox', 'status', 'x'], expect: /too many arguments for 'status'/ },
  { name: 'sandbox stop: an argument', args: ['sandbox', 'stop', 'x'], expect: /too many arguments for 'stop'/ },
  {
    name: 'sandbox requests --limit 0',
    args: ['sandbox', 'requests', '--limit', '0'],
    expect: /--limit: must be at least 1/,
  },
  {
    name: 'sandbox faults: not a spec',
    args: ['sandbox', 'faults', 'bogus'],
    expect: /<spec>: 'bogus' is not key=value/,
  },
  { name: 'sandbox quirks: not a seed', args: ['sandbox', 'quirks', 'abc'], expect: /<seed>: must be a seed/ },
  {
    name: 'sandbox openapi --url ftp',
    args: ['sandbox', 'openapi', '--url', 'ftp://x'],
    expect: /--url: must be an http\(s\) URL/,
  },
  {
    name: 'sandbox serve --state /dev/zero',
    args: ['sandbox', 'serve', '--port', '0', '--state', '/dev/zero'],
    expect: /^error: --state: \/dev\/zero is a character device, not a regular file$/m,
  },
  {
    name: 'sandbox serve --state a directory',
    args: ['sandbox', 'serve', '--port', '0', '--state', 'dir'],
    files: { 'dir/x': '' },
    expect: /^error: --state: dir is a directory, not a regular file$/m,
  },
  {
    name: 'sandbox clock set 0026-03-01 (a year before 1970)',
    args: ['sandbox', 'clock', 'set', '0026-03-01'],
    expect: /<value>: set needs a time/,
  },
];
