// Global options, keys on the command line, unknown commands and flags, missing arguments, and
// the api, config, auth, sandbox and completion commands.
import { PIPED_KEY, twoStdinReaders, type BadInput } from './types.js';

const KEY = 'sk_live_CommandLineKey_9f8e7d';
const REFUSED = /refusing an API key on the command line[\s\S]*--key-stdin, --api-key-file F, ASSESS_API_KEY/;

export const globalCases: BadInput[] = [
  { name: '--api-key on the command line', args: ['--api-key', KEY, 'tests', 'list'], expect: REFUSED },
  { name: '--key after the command', args: ['tests', 'list', '--key', KEY], expect: REFUSED },
  {
    name: 'config set api-key',
    args: ['config', 'set', 'api-key', KEY],
    expect: /config set api-key: refusing a key on the command line[\s\S]*auth login/,
  },
  {
    name: '--api-key-file missing',
    args: ['--api-key-file', 'key.txt', 'tests', 'list'],
    env: { ASSESS_API_KEY: undefined },
    expect: /--api-key-file: cannot read key\.txt \(ENOENT\)/,
  },
  {
    name: '--api-key-file empty',
    args: ['--api-key-file', 'key.txt', 'tests', 'list'],
    files: { 'key.txt': '\n' },
    expect: /--api-key-file: the key is empty/,
  },
  {
    name: '--key-stdin with nothing on stdin',
    args: ['--key-stdin', 'tests', 'list'],
    stdin: '',
    expect: /--key-stdin: the key is empty/,
  },
  {
    name: '--timeout 0',
    args: ['--timeout', '0', 'tests', 'list'],
    expect: /--timeout: must be seconds between 1 and 3600/,
  },
  // below its own 1 s minimum: was accepted, and every request then timed out at once
  {
    name: '--timeout 0.001',
    args: ['--timeout', '0.001', 'tests', 'list'],
    expect: /--timeout: must be seconds between 1 and 3600.*"0\.001"/,
  },
  {
    name: '--timeout 0.999',
    args: ['--timeout', '0.999', 'tests', 'list'],
    expect: /--timeout: must be seconds between 1 and 3600/,
  },
  {
    name: '--timeout abc',
    args: ['--timeout', 'abc', 'tests', 'list'],
    expect: /--timeout: must be seconds between 1 and 3600.*"abc"/,
  },
  {
    name: '--api v4',
    args: ['--api', 'v4', 'tests', 'list'],
    expect: /'--api <version>' argument 'v4' is invalid\. Allowed choices are v3, v2/,
  },
  {
    name: '--profile with a slash',
    args: ['--profile', '../etc', 'tests', 'list'],
    expect: /--profile: '\.\.\/etc' is not a valid profile name/,
  },
  // names every object already has: reported saved, but nothing was stored
  ...['__proto__', 'constructor', 'prototype'].map((name) => ({
    name: `auth login --profile ${name}`,
    args: ['auth', 'login', '--profile', name, '--key-stdin', '--no-verify', '--base-url', 'http://127.0.0.1:9'],
    stdin: 'sk_x_1234567890',
    expect: new RegExp(`--profile: '${name}' is not a valid profile name .*not __proto__, constructor or prototype`),
  })),
  {
    name: 'ASSESS_PROFILE with a space',
    args: ['tests', 'list'],
    env: { ASSESS_PROFILE: 'my profile' },
    expect:
      /ASSESS_PROFILE: 'my profile' is not a valid profile name[\s\S]*set ASSESS_PROFILE to a valid name, or unset it/,
  },
  {
    name: '--profile bad over a good ASSESS_PROFILE (the flag is named)',
    args: ['--profile', 'a b', 'tests', 'list'],
    env: { ASSESS_PROFILE: 'ci' },
    expect: /^error: --profile: 'a b' is not a valid profile name/m,
  },
  {
    name: 'ASSESS_API_KEY a placeholder (…)',
    args: ['tests', 'list'],
    env: { ASSESS_API_KEY: '…' },
    expect: /the API key from ASSESS_API_KEY contains characters an HTTP header cannot carry/,
  },
  {
    name: 'key file with a space inside (checked as it is read)',
    args: ['--api-key-file', 'key.txt', 'tests', 'list'],
    files: { 'key.txt': 'sk abc def\n' },
    env: { ASSESS_API_KEY: undefined },
    expect: /--api-key-file: that does not look like an API key/,
  },
  {
    name: '--json with --ndjson',
    args: ['--json', 'testId', '--ndjson', 'tests', 'list'],
    expect: /--json and --ndjson cannot be used together/,
  },
  {
    name: 'unknown command',
    args: ['bogus'],
    expect: /unknown command 'bogus'\n {2}run 'assess --help' to see the commands\n$/,
  },
  {
    name: 'misspelt command (suggestion)',
    args: ['invte', '1001'],
    expect: /unknown command 'invte' \(Did you mean invite\?\)\n {2}run 'assess --help' to see the commands\n$/,
  },
  {
    name: 'unknown verb of tests',
    args: ['tests', 'lst'],
    expect: /unknown command 'lst'[\s\S]*Did you mean list\?\)\n {2}run 'assess tests --help' to see its commands\n$/,
  },
  { name: 'unknown verb of links', args: ['links', 'delete', '1001', '5001'], expect: /unknown command 'delete'/ },
  { name: 'unknown verb of callbacks', args: ['callbacks', 'send', '900001'], expect: /unknown command 'send'/ },
  { name: 'tests without a verb', args: ['tests'], expect: /Usage: assess tests/, help: true },
  { name: 'sandbox without a verb', args: ['sandbox'], expect: /Usage: assess sandbox/, help: true },
  {
    name: 'unknown flag on tests list',
    args: ['tests', 'list', '--bogus'],
    expect: /unknown option '--bogus'\n {2}run 'assess tests list --help' to see its options\n$/,
  },
  {
    name: 'unknown global flag before the noun',
    args: ['--colour', 'tests', 'list'],
    expect: /unknown option '--colour'\n {2}run 'assess --help' to see the global options\n$/,
  },
  {
    name: 'tests get without an id',
    args: ['tests', 'get'],
    expect: /missing required argument 'testId'\n {2}run 'assess tests get --help' to see its arguments and options\n$/,
  },
  {
    name: 'tests get with two ids',
    args: ['tests', 'get', '1001', '1002'],
    expect: /too many arguments for 'get'.*\n {2}run 'assess tests get --help' to see its/,
  },
  { name: 'tests list --page 0', args: ['tests', 'list', '--page', '0'], expect: /--page: must be at least 1/ },
  {
    name: 'tests list --page 1e3',
    args: ['tests', 'list', '--page', '1e3'],
    expect: /--page: must be a whole number.*"1e3"/,
  },
  { name: 'tests list --page empty', args: ['tests', 'list', '--page', ''], expect: /--page: must be a whole number/ },
  {
    name: 'tests list --page-size 101',
    args: ['tests', 'list', '--page-size', '101'],
    expect: /--page-size: must be at most 100/,
  },
];

export const toolCases: BadInput[] = [
  {
    name: 'api: unknown method',
    args: ['api', 'FETCH', '/v3/tests'],
    expect: /<method>: must be one of GET, POST, PUT, PATCH, DELETE/,
  },
  { name: 'api: path without /', args: ['api', 'GET', 'v3/tests'], expect: /<path>: must be a path starting with \// },
  {
    name: 'api: a full URL to another host',
    args: ['api', 'GET', 'http://evil.example/v3/tests'],
    expect: /<path>: must be a path starting with \//,
  },
  {
    name: 'api: --data not JSON',
    args: ['api', 'POST', '/v3/callbacks/process', '--data', '{bad'],
    expect: /--data: not valid JSON/,
  },
  {
    name: 'api: --data @missing',
    args: ['api', 'POST', '/v3/callbacks/process', '--data', '@body.json'],
    expect: /--data: cannot read body\.json \(ENOENT\)/,
  },
  // read whole before: `--data @/dev/zero` filled memory until the machine ran out
  {
    name: 'api: --data @/dev/zero',
    args: ['api', 'POST', '/v3/callbacks/process', '--data', '@/dev/zero'],
    expect: /--data: \/dev\/zero is a character device, not a regular file/,
  },
  {
    name: 'api: --data - with more than 16 MiB on stdin',
    args: ['api', 'POST', '/v3/callbacks/process', '--data', '-'],
    stdin: Buffer.alloc(16 * 1024 * 1024 + 1, 0x20),
    expect: /--data: standard input is larger than 16 MiB/,
  },
  {
    name: 'api: --data - with an empty stdin',
    args: ['api', 'POST', '/v3/callbacks/process', '--data', '-'],
    stdin: '',
    expect: /--data: not valid JSON/,
  },
  {
    name: 'api: --data - with --key-stdin',
    args: ['--key-stdin', 'api', 'POST', '/v3/callbacks/process', '--data', '-'],
    stdin: `${PIPED_KEY}{}`,
    expect: twoStdinReaders('--data -'),
  },
  {
    name: 'api: --data @- with --key-stdin',
    args: ['--key-stdin', 'api', 'POST', '/v3/callbacks/process', '--data', '@-'],
    stdin: `${PIPED_KEY}{}`,
    expect: twoStdinReaders('--data @-'),
  },
  {
    name: 'mcp with --key-stdin (the protocol is on standard input)',
    args: ['--key-stdin', 'mcp'],
    stdin: PIPED_KEY,
    expect: twoStdinReaders('assess mcp (its protocol)'),
  },
  { name: 'api: no path', args: ['api', 'GET'], expect: /missing required argument 'path'/ },
  {
    name: 'config set: unknown key',
    args: ['config', 'set', 'colour', 'on'],
    expect: /<key>: unknown setting 'colour'/,
  },
  {
    name: 'config set timeout abc',
    args: ['config', 'set', 'timeout', 'abc'],
    expect: /timeout: must be seconds between 1 and 3600/,
  },
  {
    name: 'config set timeout 1e1',
    args: ['config', 'set', 'timeout', '1e1'],
    expect: /timeout: must be seconds between 1 and 3600.*"1e1"/,
  },
  // one range with --timeout (it was whole 1-600 here, 1-3600 with fractions there)
  {
    name: 'config set timeout 3601',
    args: ['config', 'set', 'timeout', '3601'],
    expect: /timeout: must be seconds between 1 and 3600.*"3601"/,
  },
  {
    name: 'config set timeout 0.5',
    args: ['config', 'set', 'timeout', '0.5'],
    expect: /timeout: must be seconds between 1 and 3600.*"0\.5"/,
  },
  {
    name: '--timeout 1e1',
    args: ['--timeout', '1e1', 'tests', 'list'],
    expect: /--timeout: must be seconds between 1 and 3600.*"1e1"/,
  },
  {
    name: 'config set retries 0x2',
    args: ['config', 'set', 'retries', '0x2'],
    expect: /retries: must be a whole number from 1 to 10.*"0x2"/,
  },
  {
    name: 'config set concurrency 4.0',
    args: ['config', 'set', 'concurrency', '4.0'],
    expect: /concurrency: must be a whole number from 1 to 64.*"4.0"/,
  },
  {
    name: "config set max-answer-mib ''",
    args: ['config', 'set', 'max-answer-mib', ''],
    expect: /max-answer-mib: must be a whole number from 1 to 16384.*""/,
  },
  {
    name: 'config set base-url ftp',
    args: ['config', 'set', 'base-url', 'ftp://example.com'],
    expect: /base-url: must be an http\(s\) URL/,
  },
  { name: 'config set: no value', args: ['config', 'set', 'timeout'], expect: /missing required argument 'value'/ },
  {
    name: 'auth login: no key and no terminal',
    args: ['auth', 'login'],
    env: { ASSESS_API_KEY: undefined },
    expect: /auth login: no key given and there is no terminal to ask on/,
  },
  {
    name: 'auth login: --base-url not a URL',
    args: ['auth', 'login', '--key-stdin', '--base-url', 'example.com'],
    stdin: 'sk_x_1234567890',
    expect: /--base-url: must be an http\(s\) URL/,
  },
  // two sources of the key: the file used to win silently over what was piped
  {
    name: 'auth login: --key-stdin with --key-file',
    args: [
      'auth',
      'login',
      '--profile',
      'c1',
      '--key-file',
      'key.txt',
      '--key-stdin',
      '--base-url',
      'http://127.0.0.1:9',
    ],
    files: { 'key.txt': 'sk_file_1234567890\n' },
    stdin: 'sk_stdin_1234567890',
    expect: /--key-stdin and --key-file cannot be used together/,
  },
  {
    name: '--api-key-file with --key-stdin',
    args: ['--api-key-file', 'key.txt', '--key-stdin', 'tests', 'list'],
    files: { 'key.txt': 'sk_file_1234567890\n' },
    stdin: 'sk_stdin_1234567890',
    expect: /--key-stdin and --api-key-file cannot be used together[\s\S]*pick one/,
  },
  // a query or fragment ended up before /v3/… on every request
  {
    name: 'config set base-url with a query',
    args: ['config', 'set', 'base-url', 'http://127.0.0.1:9/?x=1'],
    expect: /base-url: 'http:\/\/127\.0\.0\.1:9\/\?x=1' has a query/,
  },
  {
    name: 'config set base-url-v2 with a fragment',
    args: ['config', 'set', 'base-url-v2', 'http://127.0.0.1:9#frag'],
    expect: /base-url-v2: .* has a fragment[\s\S]*drop it, e\.g\. http:\/\/127\.0\.0\.1:9/,
  },
  {
    name: 'auth login: --base-url with a query',
    args: ['auth', 'login', '--key-stdin', '--base-url', 'http://127.0.0.1:9?x=1'],
    stdin: 'sk_x_1234567890',
    expect: /--base-url: .* has a query/,
  },
  {
    name: 'ASSESS_BASE_URL with a fragment',
    args: ['tests', 'list'],
    env: { ASSESS_BASE_URL: 'http://127.0.0.1:9/#x' },
    expect: /ASSESS_BASE_URL: .* has a fragment/,
  },
  { name: 'completion: tcsh', args: ['completion', 'tcsh'], expect: /<shell>: must be one of bash, zsh, fish/ },
  {
    name: 'sandbox serve: --port 99999',
    args: ['sandbox', 'serve', '--port', '99999'],
    expect: /--port: must be at most 65535/,
  },
  {
    name: 'sandbox serve: --host not an address',
    args: ['sandbox', 'serve', '--host', 'evil host'],
    expect: /--host: must be an IP address/,
  },
  // a timer holds at most 2^31-1 ms: a longer one fired at once, the sandbox spun (TimeoutOverflowWarning)
  {
    name: 'sandbox serve: --latency 99999999s',
    args: ['sandbox', 'serve', '--latency', '99999999s'],
    expect: /--latency: '99999999s' is longer than the longest latency, 3600s/,
  },
  {
    name: 'sandbox serve: --faults latency=1ms..2h',
    args: ['sandbox', 'serve', '--faults', 'latency=1ms..7200s'],
    expect: /latency: '1ms\.\.7200s' is longer than the longest latency/,
  },
  {
    name: 'sandbox serve: --latency fast',
    args: ['sandbox', 'serve', '--latency', 'fast'],
    expect: /--latency: 'fast' is not a latency/,
  },
  {
    name: 'sandbox serve: --faults not a spec',
    args: ['sandbox', 'serve', '--faults', 'bogus'],
    expect: /--faults: 'bogus' is not key=value; .*; e\.g\. --faults 5xx=0\.1/,
  },
  {
    name: 'sandbox serve: --delivery-faults out of range',
    args: ['sandbox', 'serve', '--delivery-faults', 'drop=2'],
    expect: /--delivery-faults: drop=2: must be a probability from 0 to 1.*; e\.g\. --delivery-faults drop=0\.1/,
  },
  {
    name: 'sandbox simulate: unknown move',
    args: ['sandbox', 'simulate', '900004', 'finish'],
    expect: /<to>: must be one of start, complete, leave, terminate, expire/,
  },
  {
    name: 'sandbox simulate: --score 101',
    args: ['sandbox', 'simulate', '900004', 'complete', '--score', '101'],
    expect: /--score: must be a number 0-100/,
  },
  {
    name: 'sandbox simulate: --section-scores 10,x',
    args: ['sandbox', 'simulate', '900004', 'complete', '--section-scores', '10,x'],
    expect: /--section-scores: must be numbers 0-100/,
  },
  {
    name: 'sandbox clock: unknown action',
    args: ['sandbox', 'clock', 'rewind'],
    expect: /<action>: must be show, advance or set/,
  },
  {
    name: 'sandbox clock advance 99999999d',
    args: ['sandbox', 'clock', 'advance', '99999999d'],
    expect: /<value>: advance needs a duration .*at most 36500d/,
  },
  {
    name: 'sandbox clock advance soon',
    args: ['sandbox', 'clock', 'advance', 'soon'],
    expect: /<value>: advance needs a duration/,
  },
  {
    name: 'sandbox clock set: not a date',
    args: ['sandbox', 'clock', 'set', '2026-02-30T00:00:00Z'],
    expect: /<value>: set needs a time: now/,
  },
  {
    name: 'sandbox reset without --yes',
    args: ['sandbox', 'reset'],
    expect: /--yes: sandbox reset \(it discards every change\) needs confirmation and there is no terminal/,
  },
  // the server does not start with writes it cannot name
  {
    name: 'mcp --allow-writes a read tool',
    args: ['mcp', '--allow-writes', 'invite,tests_list'],
    expect: /--allow-writes: "tests_list" is a tool that only reads/,
  },
  {
    name: 'mcp --allow-writes unknown tool',
    args: ['mcp', '--allow-writes', 'invitee'],
    expect: /--allow-writes: "invitee" is not a tool[\s\S]*e\.g\. --allow-writes invite/,
  },
];
