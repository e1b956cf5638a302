// Times (T) and time zone ids at every flag that takes them: impossible calendar dates, hours and
// minutes out of range, offsets out of range, words, other date formats, windows that end before
// they start, and time zone ids that are not integers.
import { esc, INVITE_OK, type BadInput } from './types.js';

interface Place {
  where: string;
  flag: string;
  build: (t: string) => string[];
}

const TIME_PLACES: Place[] = [
  { where: 'invite', flag: '--start', build: (t) => ['invite', '1001', ...INVITE_OK, '--start', t, '--end', '30d'] },
  { where: 'invite', flag: '--end', build: (t) => ['invite', '1001', ...INVITE_OK, '--start', 'now', '--end', t] },
  {
    where: 'reattempt',
    flag: '--start',
    build: (t) => ['reattempt', '900001', '--start', t, '--end', '30d', '--tz', '1'],
  },
  {
    where: 'reattempt',
    flag: '--end',
    build: (t) => ['reattempt', '900001', '--start', 'now', '--end', t, '--tz', '1'],
  },
  {
    where: 'attempts list',
    flag: '--from',
    build: (t) => ['attempts', 'list', '--state', 'completed', '--from', t, '--to', 'now'],
  },
  {
    where: 'attempts list',
    flag: '--to',
    build: (t) => ['attempts', 'list', '--state', 'completed', '--from', '30d', '--to', t],
  },
  {
    where: 'report export',
    flag: '--from',
    build: (t) => ['report', 'export', '--from', t, '--to', 'now', '--out', 'out'],
  },
  {
    where: 'report export',
    flag: '--to',
    build: (t) => ['report', 'export', '--from', '30d', '--to', t, '--out', 'out'],
  },
  {
    where: 'links create',
    flag: '--start',
    build: (t) => ['links', 'create', '1001', '--name', 'X', '--start', t, '--end', '30d', '--tz', '1'],
  },
  {
    where: 'links create',
    flag: '--end',
    build: (t) => ['links', 'create', '1001', '--name', 'X', '--start', 'now', '--end', t, '--tz', '1'],
  },
  { where: 'links update', flag: '--end', build: (t) => ['links', 'update', '1001', '5002', '--end', t] },
  {
    where: 'callbacks process --from-attempts',
    flag: '--from',
    build: (t) => ['callbacks', 'process', '--from-attempts', '--state', 'completed', '--from', t, '--to', 'now'],
  },
  { where: 'report stats', flag: '--from', build: (t) => ['report', 'stats', '--from', t] },
  { where: 'callbacks inbox', flag: '--since', build: (t) => ['callbacks', 'inbox', '--since', t] },
  { where: 'callbacks replay', flag: '--since', build: (t) => ['callbacks', 'replay', '--since', t] },
  { where: 'callbacks reconcile', flag: '--to', build: (t) => ['callbacks', 'reconcile', '--from', '30d', '--to', t] },
];

/** [value, what the message says] — two per place, rotating. */
const BAD_TIMES: Array<[string, string]> = [
  ['2026-02-30', 'is not a real date'],
  ['2025-02-29', 'is not a real date'], // not a leap year
  ['2026-13-01', 'is not a real date'],
  ['2026-03-01T25:00:00Z', 'is not a real date-time'],
  ['2026-03-01T10:61:00Z', 'is not a real date-time'],
  ['2026-03-01T10:00:00+25:00', 'is not a real date-time'],
  ['the day before', 'is not a time'],
  ['7x', 'is not a unit of time'],
  ['2026/03/01', 'is not a time'],
  ['03/01/2026', 'is not a time'],
  ['9999999d', 'is not a time'], // more digits than a relative time takes
  ['2026-03-01 10:00', 'is not a time'],
  ['', 'is not a time'],
  ['2026-3-1', 'is not a time'],
  ['now+1d', 'is not a time'],
  ['1700000000', 'is not a time'], // epoch seconds are not accepted
];

export const timeCases: BadInput[] = TIME_PLACES.flatMap((p, i) =>
  [0, 1].map((k) => {
    const [value, problem] = BAD_TIMES[(i * 2 + k) % BAD_TIMES.length]!;
    return {
      name: `${p.where} ${p.flag} ${JSON.stringify(value)}`,
      args: p.build(value),
      expect: new RegExp(`${esc(p.flag)}: .*${problem}`),
    };
  }),
);

/** Years outside 1970–9999: `0026` was sent as 1926, and relative times ran past 9999. */
const BAD_YEARS: Array<[string, string]> = [
  ['0026-03-01', 'in the year 26;'],
  ['0099-12-31T10:00:00Z', 'in the year 99;'],
  ['1969-12-31T23:59:59Z', 'in the year 1969;'],
  ['9999-12-31T23:59:59-05:00', 'in the year 10000;'],
  ['+999999w', 'in the year \\d{5};'],
  ['-999999d', 'in the year -\\d+;'],
];

export const yearCases: BadInput[] = TIME_PLACES.flatMap((p, i) =>
  [0, 1].map((k) => {
    const [value, problem] = BAD_YEARS[(i * 2 + k) % BAD_YEARS.length]!;
    return {
      name: `${p.where} ${p.flag} ${JSON.stringify(value)} (year)`,
      args: p.build(value),
      expect: new RegExp(`${esc(p.flag)}: '${esc(value)}' is ${problem} use a time from 1970 to 9999`),
    };
  }),
);
yearCases.push({
  name: 'invite --from-csv: startDateTime 0026-03-01',
  args: ['invite', '1001', '--from-csv', 'c.csv'],
  files: { 'c.csv': 'email,name,startDateTime,endDateTime\nann@example.com,Ann,0026-03-01,2030-03-01\n' },
  expect: /line 2: startDateTime: '…' is in the year 26; use a time from 1970 to 9999/,
});

export const windowCases: BadInput[] = [
  {
    name: 'invite: --end before --start',
    args: ['invite', '1001', ...INVITE_OK, '--start', '2030-03-05', '--end', '2030-03-01'],
    expect: /--end: must be after --start/,
  },
  {
    name: 'reattempt: --end before --start (relative)',
    args: ['reattempt', '900001', '--start', '7d', '--end', 'now', '--tz', '1'],
    expect: /--end: must be after --start/,
  },
  {
    name: 'attempts list: --to before --from',
    args: ['attempts', 'list', '--state', 'completed', '--from', 'now', '--to', '7d'],
    expect: /--to: must be after --from/,
  },
  {
    name: 'report export: --to before --from',
    args: ['report', 'export', '--from', '2026-03-05', '--to', '2026-03-01', '--out', 'out'],
    expect: /--to: must be after --from/,
  },
  {
    name: 'links create: --end before --start',
    args: ['links', 'create', '1001', '--name', 'X', '--start', '2030-03-05', '--end', '2030-03-01', '--tz', '1'],
    expect: /--end: must be after --start/,
  },
  {
    name: 'invite: --start without --end',
    args: ['invite', '1001', ...INVITE_OK, '--start', '2030-03-01'],
    expect: /--end: is required when the other of --start\/--end is given/,
  },
  {
    name: 'invite: --end without --start',
    args: ['invite', '1001', ...INVITE_OK, '--end', '2030-03-01'],
    expect: /--start: is required when the other of --start\/--end is given/,
  },
  {
    name: 'reattempt: no --start',
    args: ['reattempt', '900001', '--end', '7d', '--tz', '1'],
    expect: /--start: is required/,
  },
];

const TZ = /--tz: must be (a time zone id or name|at least 1|at most)/;
export const tzCases: BadInput[] = [
  { name: 'invite --tz 1.5', args: ['invite', '1001', ...INVITE_OK, '--tz', '1.5'], expect: TZ },
  { name: 'invite --tz with a semicolon', args: ['invite', '1001', ...INVITE_OK, '--tz', 'UTC; rm -rf'], expect: TZ },
  { name: 'invite --tz -1', args: ['invite', '1001', ...INVITE_OK, '--tz', '-1'], expect: /--tz: must be at least 1/ },
  // ids are positive: 0 was sent and a link created in zone 0
  {
    name: 'links create --tz 0',
    args: ['links', 'create', '1001', '--name', 'X', '--valid-days', '7', '--tz', '0'],
    expect: /--tz: must be a time zone id of 1 or more, or a name/,
  },
  {
    name: 'invite --tz 000',
    args: ['invite', '1001', ...INVITE_OK, '--tz', '000'],
    expect: /--tz: must be a time zone id of 1 or more/,
  },
  {
    name: 'invite --tz 2^31',
    args: ['invite', '1001', ...INVITE_OK, '--tz', '2147483648'],
    expect: /--tz: must be at most 2147483647/,
  },
  { name: 'invite --tz empty', args: ['invite', '1001', ...INVITE_OK, '--tz', ''], expect: TZ },
  {
    name: 'reattempt --tz 1e2',
    args: ['reattempt', '900001', '--start', 'now', '--end', '7d', '--tz', '1e2'],
    expect: TZ,
  },
  {
    name: 'links create --tz 1.0',
    args: ['links', 'create', '1001', '--name', 'X', '--valid-days', '7', '--tz', '1.0'],
    expect: TZ,
  },
  { name: 'links update --tz 3.5', args: ['links', 'update', '1001', '5001', '--tz', '3.5'], expect: TZ },
  {
    name: 'links create: schedule without --tz',
    args: ['links', 'create', '1001', '--name', 'X', '--valid-days', '7'],
    expect: /--tz: is required with a schedule/,
  },
];
