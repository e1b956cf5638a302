// Ids that are not 64-bit positive integers, at every place a command takes a test, link or
// invitation id. Every place gets the overflow (2^63) and a rotating second value (zero, negative,
// decimal, exponent, hex, leading zero, 20 digits, …); the first few places also get a word.
import { esc, INVITE_OK, type BadInput } from './types.js';

interface Place {
  where: string;
  /** The label the message names, e.g. '<testId>' or '--link'. */
  label: string;
  build: (id: string) => string[];
}

const PLACES: Place[] = [
  { where: 'tests get', label: '<testId>', build: (id) => ['tests', 'get', id] },
  { where: 'links list', label: '<testId>', build: (id) => ['links', 'list', id] },
  { where: 'links get (test)', label: '<testId>', build: (id) => ['links', 'get', id, '5001'] },
  { where: 'links get (link)', label: '<linkId>', build: (id) => ['links', 'get', '1001', id] },
  {
    where: 'links create',
    label: '<testId>',
    build: (id) => ['links', 'create', id, '--name', 'X', '--valid-days', '7', '--tz', '1'],
  },
  { where: 'links update', label: '<linkId>', build: (id) => ['links', 'update', '1001', id, '--status', 'active'] },
  { where: 'invite', label: '<testId>', build: (id) => ['invite', id, ...INVITE_OK] },
  { where: 'invite --link', label: '--link', build: (id) => ['invite', '1001', '--link', id, ...INVITE_OK] },
  { where: 'invite --csv', label: '<testId>', build: (id) => ['invite', id, '--csv', 'c.csv'] },
  { where: 'attempts cancel', label: '<invitationId>', build: (id) => ['attempts', 'cancel', id, '--yes'] },
  {
    where: 'reattempt',
    label: '<invitationId>',
    build: (id) => ['reattempt', id, '--start', 'now', '--end', '7d', '--tz', '1'],
  },
  { where: 'report', label: '<invitationId>', build: (id) => ['report', id] },
  { where: 'report --pdf', label: '<invitationId>', build: (id) => ['report', id, '--pdf'] },
  { where: 'settings get', label: '<testId>', build: (id) => ['settings', 'get', id] },
  {
    where: 'settings set',
    label: '<testId>',
    build: (id) => ['settings', 'set', id, '--set', 'questionSettings.randomQuestions=1', '--dry-run'],
  },
  { where: 'sandbox simulate', label: '<invitationId>', build: (id) => ['sandbox', 'simulate', id, 'start'] },
  { where: 'sandbox outbox', label: '--invitation', build: (id) => ['sandbox', 'outbox', '--invitation', id] },
  { where: 'sandbox deliveries', label: '--invitation', build: (id) => ['sandbox', 'deliveries', '--invitation', id] },
];

const NOT_ID = 'must be a positive integer id';
/** [value, what the message must say about it] */
const ROTATING: Array<[string, string]> = [
  ['0', NOT_ID],
  ['-5', NOT_ID],
  ['1.5', NOT_ID],
  ['1e3', NOT_ID],
  ['0x10', NOT_ID],
  ['007', NOT_ID],
  ['99999999999999999999', NOT_ID],
  ['', NOT_ID],
  ['12 34', NOT_ID],
  ['١٢٣', NOT_ID], // Arabic-Indic digits
  ['+5', NOT_ID],
  ['5001;rm -rf', NOT_ID],
];

export const idCases: BadInput[] = PLACES.flatMap((p, i) => {
  const [value, problem] = ROTATING[i % ROTATING.length]!;
  const label = esc(p.label);
  const files = p.where === 'invite --csv' ? { 'c.csv': 'email,name\nann@example.com,Ann\n' } : undefined;
  return [
    {
      name: `${p.where}: 2^63 overflows a 64-bit id`,
      args: p.build('9223372036854775808'),
      files,
      expect: new RegExp(`${label}: is larger than a 64-bit integer`),
    },
    {
      name: `${p.where}: ${JSON.stringify(value)}`,
      args: p.build(value),
      files,
      expect: new RegExp(`${label}: ${problem}`),
    },
    ...(i < 6
      ? [
          {
            name: `${p.where}: a word is not an id`,
            args: p.build('abc'),
            files,
            expect: new RegExp(`${label}: ${NOT_ID}.*"abc"`),
          },
        ]
      : []),
  ];
});

// An invitation id's example is an invitation id (900001), not a link's (5001).
export const invitationExampleCases: BadInput[] = [
  {
    name: 'attempts cancel: the example is an invitation id',
    args: ['attempts', 'cancel', 'abc', '--yes'],
    expect: /<invitationId>: .*e\.g\. 900001 \(got "abc"\)/,
  },
  {
    name: 'reattempt: the example is an invitation id',
    args: ['reattempt', 'x', '--start', 'now', '--end', '7d', '--tz', '1'],
    expect: /<invitationId>: .*e\.g\. 900001/,
  },
  { name: 'report: the example is an invitation id', args: ['report', 'x'], expect: /<invitationId>: .*e\.g\. 900001/ },
  {
    name: 'attempts wait: no ids, an invitation id as example',
    args: ['attempts', 'wait'],
    expect: /<ids>: no invitation ids given\n.*assess attempts wait 900001/,
  },
];

// callbacks process reads ids itself (arguments or a file, comma/space separated).
export const callbackIdCases: BadInput[] = [
  {
    name: 'callbacks process: 2^63',
    args: ['callbacks', 'process', '9223372036854775808'],
    expect: /<ids>: '9223372036854775808' is not an invitation id/,
  },
  {
    name: 'callbacks process: a word among ids',
    args: ['callbacks', 'process', '900001', 'abc'],
    expect: /<ids>: 'abc' is not an invitation id/,
  },
  {
    name: 'callbacks process: zero in a comma list',
    args: ['callbacks', 'process', '900001,0'],
    expect: /<ids>: '0' is not an invitation id/,
  },
  {
    name: 'callbacks process: negative after --',
    args: ['callbacks', 'process', '--', '-7'],
    expect: /<ids>: '-7' is not an invitation id/,
  },
  {
    name: 'callbacks process --file: bad id on line 3',
    args: ['callbacks', 'process', '--file', 'ids.txt'],
    files: { 'ids.txt': '900001\n# comment\n900002 x9\n' },
    expect: /^error: --file: line 3, word 2: not an invitation id\n/,
  },
  {
    name: 'callbacks process --file: overflow',
    args: ['callbacks', 'process', '--file', 'ids.txt'],
    files: { 'ids.txt': '900001, 18446744073709551616\n' },
    expect: /^error: --file: line 1, word 2: too large for an invitation id\n/,
  },
  {
    name: 'callbacks process --file -: bad id on stdin',
    args: ['callbacks', 'process', '--file', '-'],
    stdin: '900001\n1.5\n',
    expect: /--file: line 2: not an invitation id\n/,
  },
];
