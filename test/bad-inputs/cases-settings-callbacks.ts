// settings set (--set values and --file JSON of the wrong type) and callbacks process/listen.
import { PIPED_KEY, twoStdinReaders, type BadInput } from './types.js';

const set = (...flags: string[]) => ['settings', 'set', '1001', ...flags, '--dry-run'];
const withFile = (json: string): Pick<BadInput, 'args' | 'files'> => ({
  args: set('--file', 's.json'),
  files: { 's.json': json },
});
const F = '--file s\\.json: ';

export const settingsCases: BadInput[] = [
  {
    name: 'flag as a string "1"',
    ...withFile('{"questionSettings":{"randomQuestions":"1"}}'),
    expect: new RegExp(`${F}line 1: questionSettings\\.randomQuestions: must be 0 or 1 \\(got a string\\)`),
  },
  {
    name: 'flag 2',
    ...withFile('{"questionSettings":{"randomQuestions":2}}'),
    expect: /questionSettings\.randomQuestions: must be 0 or 1 \(got a number\)/,
  },
  {
    name: 'flag null',
    ...withFile('{"windowViolationSettings":{"copyPaste":null}}'),
    expect: /windowViolationSettings\.copyPaste: must be 0 or 1 \(got null\)/,
  },
  {
    name: 'flag true',
    ...withFile('{"emailSettings":{"sendTestReportEmailToCandidate":true}}'),
    expect: /emailSettings\.sendTestReportEmailToCandidate: must be 0 or 1 \(got a boolean\)/,
  },
  {
    name: 'name as a number',
    ...withFile('{"testSettings":{"testName":123}}'),
    expect: /testSettings\.testName: must be text, not empty \(got a number\)/,
  },
  {
    name: 'negative violation count',
    ...withFile('{"imageProctoringSettings":{"terminateTestAfterViolationCount":-3}}'),
    expect:
      /imageProctoringSettings\.terminateTestAfterViolationCount: must be a whole number from 0 to 1000 \(got a number\)\n {2}e\.g\. \{"imageProctoringSettings":\{"terminateTestAfterViolationCount":3\}\}/,
  },
  {
    name: 'a section that is a number',
    ...withFile('{"questionSettings":5}'),
    expect: new RegExp(`${F}line 1: questionSettings: must be an object of settings \\(got a number\\)`),
  },
  {
    name: 'unknown setting (suggests the key)',
    ...withFile('{"questionSettings":{"randomQuestion":1}}'),
    expect: /line 1: an unknown setting in questionSettings\n[\s\S]*did you mean questionSettings\.randomQuestions/,
  },
  {
    name: '__proto__ key',
    ...withFile('{"__proto__":{"polluted":1}}'),
    expect: /--file s\.json: line 1: an unknown settings section\n/,
  },
  {
    name: 'not JSON',
    ...withFile('{bad json'),
    expect: new RegExp(`${F}line 1, column 2: not valid JSON \\(a property name in double quotes expected\\)\\n`),
  },
  { name: 'a JSON array', ...withFile('[1,2]'), expect: /must hold a JSON object of settings sections/ },
  { name: 'empty file', ...withFile(''), expect: /line 1, column 1: not valid JSON \(the text ends too early\)/ },
  { name: '--file missing', args: set('--file', 'none.json'), expect: /--file: cannot read none\.json \(ENOENT\)/ },
  {
    name: '--set without =',
    args: set('--set', 'questionSettings.randomQuestions'),
    expect: /--set: expected section\.field=value/,
  },
  {
    name: '--set unknown key',
    args: set('--set', 'questionSettings.bogus=1'),
    expect: /--set: unknown setting 'questionSettings\.bogus'/,
  },
  {
    name: '--set a count 1.5',
    args: set('--set', 'imageProctoringSettings.terminateTestAfterViolationCount=1.5'),
    expect:
      /--set imageProctoringSettings\.terminateTestAfterViolationCount: must be a whole number from 0 to 1000 \(got "1\.5"\)\n {2}e\.g\. --set imageProctoringSettings\.terminateTestAfterViolationCount=3\n$/,
  },
  {
    name: '--set flag maybe',
    args: set('--set', 'questionSettings.randomQuestions=maybe'),
    expect: /--set questionSettings\.randomQuestions: must be 0 or 1 \(got "maybe"\)/,
  },
  { name: 'nothing to set', args: set(), expect: /--set: give at least one --set section\.field=value, or --file F/ },
  {
    name: 'no --yes and no terminal',
    args: ['settings', 'set', '1001', '--set', 'questionSettings.randomQuestions=1'],
    expect: /settings set: replacing the settings needs confirmation and there is no terminal/,
  },
];

export const callbackCases: BadInput[] = [
  { name: 'process: no ids', args: ['callbacks', 'process'], expect: /<ids>: no invitation ids given/ },
  {
    name: 'process: ids and --file',
    args: ['callbacks', 'process', '900001', '--file', 'ids.txt'],
    files: { 'ids.txt': '900002\n' },
    expect: /--file: give ids as arguments or with --file, not both/,
  },
  {
    name: 'process: --file empty',
    args: ['callbacks', 'process', '--file', 'ids.txt'],
    files: { 'ids.txt': '# none\n' },
    expect: /--file: no invitation ids in ids\.txt/,
  },
  {
    name: 'process: --file /dev/zero',
    args: ['callbacks', 'process', '--file', '/dev/zero'],
    expect: /--file: \/dev\/zero is a character device, not a regular file/,
  },
  {
    name: 'verify: /dev/zero',
    args: ['callbacks', 'verify', '/dev/zero', '--secret-file', 'secret.txt'],
    files: { 'secret.txt': 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    expect: /<file>: \/dev\/zero is a character device, not a regular file/,
  },
  {
    name: 'settings set: --file /dev/zero',
    args: ['settings', 'set', '1001', '--file', '/dev/zero', '--yes'],
    expect: /--file: \/dev\/zero is a character device, not a regular file/,
  },
  {
    name: 'process: --file missing',
    args: ['callbacks', 'process', '--file', 'ids.txt'],
    expect: /--file: cannot read ids\.txt \(ENOENT\)/,
  },
  {
    name: 'process: --state without --from-attempts',
    args: ['callbacks', 'process', '--state', 'completed'],
    expect: /--state: needs --from-attempts/,
  },
  {
    name: 'process: --from-attempts with ids',
    args: ['callbacks', 'process', '900001', '--from-attempts', '--state', 'completed', '--from', '7d', '--to', 'now'],
    expect: /--from-attempts: give ids as arguments, with --file, or with --from-attempts/,
  },
  {
    name: 'process: --from-attempts without --from',
    args: ['callbacks', 'process', '--from-attempts', '--to', 'now'],
    expect: /--from: is required/,
  },
  {
    name: 'process: --file - with --key-stdin',
    args: ['--key-stdin', 'callbacks', 'process', '--file', '-'],
    stdin: `${PIPED_KEY}900001\n`,
    expect: twoStdinReaders('--file -'),
  },
  {
    name: 'settings set: --file - with --key-stdin',
    args: ['--key-stdin', 'settings', 'set', '1001', '--file', '-', '--yes'],
    stdin: `${PIPED_KEY}{}`,
    expect: twoStdinReaders('--file -'),
  },
  {
    name: 'verify: - with --key-stdin',
    args: ['--key-stdin', 'callbacks', 'verify', '-'],
    stdin: `${PIPED_KEY}{}`,
    expect: twoStdinReaders('<file> -'),
  },
  {
    name: 'verify: no file (standard input) with --key-stdin',
    args: ['--key-stdin', 'callbacks', 'verify'],
    stdin: PIPED_KEY,
    expect: twoStdinReaders('<file> left out (then -)'),
  },
  {
    name: 'replay: --sign with --no-sign',
    args: ['callbacks', 'replay', '900001', '--sign', '--no-sign'],
    expect: /--sign and --no-sign cannot be used together/,
  },
  {
    name: 'listen: --port 70000',
    args: ['callbacks', 'listen', '--port', '70000'],
    expect: /--port: must be at most 65535/,
  },
  {
    name: 'listen: --host with a shell command',
    args: ['callbacks', 'listen', '--host', '0.0.0.0; rm -rf /'],
    expect: /--host: must be an IP address/,
  },
  {
    name: 'listen: --path without /',
    args: ['callbacks', 'listen', '--path', 'hook'],
    expect: /--path: must be a URL path starting with \//,
  },
  {
    // the README's `--token-file listen.token` before the file exists: the hint says how to make one
    name: 'listen: --token-file that does not exist',
    args: ['callbacks', 'listen', '--port', '0', '--token-file', 'listen.token'],
    expect:
      /^error: --token-file: cannot read listen\.token \(ENOENT\)\n {2}make one first .*: \(umask 077; openssl rand -hex 24 > listen\.token\)\n$/,
  },
  {
    name: 'listen: --token with a space',
    args: ['callbacks', 'listen', '--token', 'a b'],
    expect: /--token: must be 1-200 URL-safe characters/,
  },
  {
    name: 'listen: --forward-to file:',
    args: ['callbacks', 'listen', '--forward-to', 'file:///etc/passwd'],
    expect: /--forward-to: must be an http\(s\) URL/,
  },
  { name: 'listen: --exec blank', args: ['callbacks', 'listen', '--exec', '   '], expect: /--exec: must be a command/ },
  // the store the callbacks records live in
  {
    name: 'store path: an option it has not',
    args: ['store', 'path', '--store', 'x.db'],
    expect: /unknown option '--store'/,
  },
  { name: 'store info: empty --store', args: ['store', 'info', '--store='], expect: /--store: must name a file/ },
  { name: 'store check: empty --store', args: ['store', 'check', '--store='], expect: /--store: must name a file/ },
  { name: 'store backup: no file', args: ['store', 'backup'], expect: /missing required argument 'file'/ },
];
