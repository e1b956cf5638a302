// links create/update, attempts, reattempt, report (--pdf -o), report export (--out) and stats:
// enums, ranges, missing and conflicting flags, and output paths the command must refuse.
import { HUGE, type BadInput } from './types.js';

const create = (...flags: string[]) => ['links', 'create', '1001', ...flags];
const SCHED = ['--valid-days', '7', '--tz', '1'];

export const linkCases: BadInput[] = [
  { name: 'create: no --name', args: create(...SCHED), expect: /--name: is required/ },
  {
    name: 'create: no schedule',
    args: create('--name', 'X', '--tz', '1'),
    expect: /--valid-days: a schedule is required/,
  },
  {
    name: 'create: --valid-days 0',
    args: create('--name', 'X', '--valid-days', '0', '--tz', '1'),
    expect: /--valid-days: must be at least 1/,
  },
  {
    name: 'create: --valid-days with --start/--end',
    args: create('--name', 'X', ...SCHED, '--start', 'now', '--end', '2d'),
    expect: /--valid-days: cannot be combined with --start\/--end/,
  },
  {
    name: 'create: --slotwise with --valid-days',
    args: create('--name', 'X', ...SCHED, '--slotwise'),
    expect: /--slotwise: only applies to a --start\/--end schedule/,
  },
  {
    name: 'create: --status paused',
    args: create('--name', 'X', ...SCHED, '--status', 'paused'),
    expect: /--status: must be one of active, inactive/,
  },
  {
    name: 'create: --type public',
    args: create('--name', 'X', ...SCHED, '--type', 'public'),
    expect: /--type: must be one of email, open/,
  },
  {
    name: 'create: --proctoring audio',
    args: create('--name', 'X', ...SCHED, '--proctoring', 'audio'),
    expect: /--proctoring: must be one of disabled, image, video/,
  },
  {
    name: 'create: --stakeholders with ;',
    args: create('--name', 'X', ...SCHED, '--stakeholders', 'a@example.com;b@example.com'),
    expect: /--stakeholders: must be comma-separated e-mail addresses/,
  },
  {
    name: 'create: name with an OSC sequence',
    args: create('--name', 'X\u001b]0;pwned\u0007', ...SCHED),
    expect: /--name: must not contain control characters/,
  },
  {
    name: 'create: a 100 KB name',
    args: create('--name', HUGE, ...SCHED),
    expect: /--name: must be at most 200 characters.*102400 characters/,
  },
  {
    name: 'update: nothing to change',
    args: ['links', 'update', '1001', '5001'],
    expect: /links update: nothing to change; give at least one of --name/,
  },
  {
    name: 'update: --slotwise with --no-slotwise',
    args: ['links', 'update', '1001', '5001', '--slotwise', '--no-slotwise'],
    expect: /--slotwise and --no-slotwise cannot be used together/,
  },
  {
    name: 'update: --status off',
    args: ['links', 'update', '1001', '5001', '--status', 'off'],
    expect: /--status: must be one of active, inactive/,
  },
  {
    name: 'update: empty --name',
    args: ['links', 'update', '1001', '5001', '--name', ' '],
    expect: /--name: must not be empty/,
  },
  { name: 'get: no link id', args: ['links', 'get', '1001'], expect: /missing required argument 'linkId'/ },
];

export const attemptCases: BadInput[] = [
  {
    name: 'attempts list: --state done',
    args: ['attempts', 'list', '--state', 'done', '--from', '7d', '--to', 'now'],
    expect: /--state: must be completed, cancelled, expired, pending or in-progress/,
  },
  {
    name: 'attempts list: no --from (--state and --to have defaults)',
    args: ['attempts', 'list', '--state', 'expired'],
    expect: /--from: is required/,
  },
  {
    name: 'attempts list: no --from',
    args: ['attempts', 'list', '--state', 'completed', '--to', 'now'],
    expect: /--from: is required/,
  },
  {
    name: 'attempts cancel: no --yes without a terminal',
    args: ['attempts', 'cancel', '900004'],
    expect: /--yes: cancelling invitation 900004 needs confirmation and there is no terminal/,
  },
  {
    name: 'attempts cancel: two ids',
    args: ['attempts', 'cancel', '900004', '900009', '--yes'],
    expect: /too many arguments for 'cancel'/,
  },
  {
    name: 'reattempt: no --tz',
    args: ['reattempt', '900001', '--start', 'now', '--end', '7d'],
    expect: /--tz: is required/,
  },
  {
    name: 'reattempt: --callback-url not a URL',
    args: ['reattempt', '900001', '--start', 'now', '--end', '7d', '--tz', '1', '--callback-url', 'hook'],
    expect: /--callback-url: must be an http\(s\) URL/,
  },
];

export const reportCases: BadInput[] = [
  {
    name: 'report: --type full',
    args: ['report', '900001', '--type', 'full'],
    expect: /--type: must be summary, skills or both/,
  },
  {
    name: 'report: --pdf with --type',
    args: ['report', '900001', '--pdf', '--type', 'both'],
    expect: /--type: applies to the JSON report, not to --pdf/,
  },
  { name: 'report: -o without --pdf', args: ['report', '900001', '-o', 'r.pdf'], expect: /--output: needs --pdf/ },
  {
    name: 'report --pdf -o into a missing directory',
    args: ['report', '900001', '--pdf', '-o', 'nowhere/r.pdf'],
    expect: /-o: directory .*nowhere does not exist/,
  },
  {
    name: 'report --pdf -o through a file',
    args: ['report', '900001', '--pdf', '-o', 'afile/r.pdf'],
    files: { afile: 'x' },
    expect: /-o: \/.*\/afile is a file, not a directory \(ENOTDIR\)/,
  },
  {
    name: 'report --pdf -o through a file, deeper',
    args: ['report', '900001', '--pdf', '-o', 'afile/sub/r.pdf'],
    files: { afile: 'x' },
    expect: /-o: \/.*\/afile is a file, not a directory \(ENOTDIR\)/,
  },
  {
    name: 'report --pdf -o a missing directory with a trailing slash (not a file of that name)',
    args: ['report', '900001', '--pdf', '-o', 'nodir/'],
    expect: /-o: directory nodir\/ does not exist[\s\S]*mkdir -p nodir\//,
  },
  {
    name: 'report --pdf -o a file with a trailing slash',
    args: ['report', '900001', '--pdf', '-o', 'afile/'],
    files: { afile: 'x' },
    expect: /-o: afile\/ is a file, not a directory \(ENOTDIR\)/,
  },
  {
    name: 'report --pdf -o ../ into a missing directory',
    args: ['report', '900001', '--pdf', '-o', '../../../../../../no-such-dir-zz/r.pdf'],
    expect: /-o: directory \/no-such-dir-zz does not exist/,
  },
  {
    name: 'report --pdf -o over an existing file',
    args: ['report', '900001', '--pdf', '-o', 'keep.pdf'],
    files: { 'keep.pdf': 'mine' },
    expect: /-o: .*keep\.pdf already exists[\s\S]*--force/,
  },
  {
    name: 'report --pdf -o sub/../ over an existing file',
    args: ['report', '900001', '--pdf', '-o', 'sub/../keep.pdf'],
    files: { 'keep.pdf': 'mine', 'sub/x': '' },
    expect: /-o: .*\/keep\.pdf already exists/,
  },
  {
    name: 'report --pdf -o empty',
    args: ['report', '900001', '--pdf', '-o', ''],
    expect: /--output: must be a file name, a directory, or -/,
  },
  {
    name: 'report: a word instead of a verb or id',
    args: ['report', 'exprt'],
    expect: /<invitationId>: must be a positive integer id.*"exprt"/,
  },
];

const exp = (...flags: string[]) => ['report', 'export', '--from', '7d', '--to', 'now', ...flags];
export const exportCases: BadInput[] = [
  { name: 'export: no --out', args: exp(), expect: /--out: is required: the directory to write to/ },
  {
    name: 'export: --out is a file',
    args: exp('--out', 'afile'),
    files: { afile: 'x' },
    expect: /--out: cannot create .*afile \(EEXIST\)/,
  },
  {
    name: 'export: --out through a file',
    args: exp('--out', 'afile/reports'),
    files: { afile: 'x' },
    expect: /--out: cannot create .*afile\/reports \(ENOTDIR\)/,
  },
  { name: 'export: --out /dev/null', args: exp('--out', '/dev/null'), expect: /--out: cannot create \/dev\/null/ },
  { name: 'export: --out empty', args: exp('--out', ''), expect: /--out: must name a directory/ },
  {
    name: 'export: --format xml',
    args: exp('--out', 'out', '--format', 'xml'),
    expect: /--format: must be csv, json or ndjson/,
  },
  {
    name: 'export: --state done',
    args: exp('--out', 'out', '--state', 'done'),
    expect: /--state: must be completed, cancelled or expired/,
  },
  {
    name: 'export: no --from',
    args: ['report', 'export', '--to', 'now', '--out', 'out'],
    expect: /--from: is required \(or --since-last-run\)/,
  },
  {
    name: 'export: --results equal to --journal',
    args: exp('--out', 'out', '--journal', 'j.ndjson', '--results', './j.ndjson'),
    expect: /--results: must differ from --journal/,
  },
  {
    name: 'export --html: an index.html assess did not write',
    args: exp('--out', 'out', '--html'),
    files: { 'out/index.html': '<p>mine</p>' },
    expect: /--html: .*index\.html exists and was not written by assess/,
  },
  { name: 'stats: no --from', args: ['report', 'stats'], expect: /--from: is required, e\.g\. --from 7d/ },
  {
    name: 'stats: --to before --from',
    args: ['report', 'stats', '--from', '1d', '--to', '2d'],
    expect: /--to: must be after --from/,
  },
  {
    name: 'stats: --test not an id',
    args: ['report', 'stats', '--from', '1d', '--test', 'java'],
    expect: /--test: must be a positive integer id/,
  },
  {
    name: 'stats: --state done',
    args: ['report', 'stats', '--from', '1d', '--state', 'done'],
    expect: /--state: must be completed, cancelled or expired/,
  },
  {
    name: 'stats: --json unknown field',
    args: ['report', 'stats', '--from', '1d', '--json', 'average'],
    expect: /average/,
  },
];
