// What `assess` alone prints: the commands a first cohort needs and where to read more, in a
// screen (at most 25 lines at any width from 40; `assess --help` lists everything). test/unit/summary.test.ts checks
// that every command
// named here exists, so the list cannot drift from the program.
import { manualRef, MANUALS_AT } from '../util/manuals.js';
import { wrapLine } from '../output/wrap.js';

export const COMMON: ReadonlyArray<readonly [command: string, what: string]> = [
  ['auth login', 'save and check an API key'],
  ['tests list', 'the tests of the account'],
  ['invite <testId>', 'invite a candidate (or a CSV)'],
  ['attempts list', 'invitations and how far each got'],
  ['attempts wait [ids...]', 'wait until candidates finish'],
  ['report <invitationId>', "a candidate's report"],
  ['report export', "export a cohort's reports"],
  ['reattempt <invitationId>', 'let a candidate try again'],
];

const MORE: ReadonlyArray<readonly [string, string]> = [
  ['Try it without an account:', 'assess --sandbox tests list'],
  ['Every command and option:', 'assess --help'],
  ['One command:', 'assess help <command>'],
  ['Running a cohort:', manualRef('cohort.md')],
  ['Manuals:', MANUALS_AT],
];

// the narrowest second column kept beside the first; narrower, the commands are listed alone
const NARROWEST_BESIDE = 20;

/** The commands, with what each does beside it where the width leaves room for it. */
function commands(width: number): string[] {
  const term = Math.max(...COMMON.map(([t]) => t.length)) + 2;
  const under = ' '.repeat(2 + term);
  if (under.length + NARROWEST_BESIDE > width) return COMMON.map(([t]) => `  ${t}`);
  return COMMON.map(([t, what]) => `  ${t.padEnd(term)}${wrapLine(`${under}${what}`, width).slice(under.length)}`);
}

/**
 * Where to go next: label and command (or path) in two columns where they fit, else on one line,
 * else the command under its label. A command or path is never broken.
 */
function more(width: number): string[] {
  const term = Math.max(...MORE.map(([t]) => t.length)) + 2;
  return MORE.map(([label, what]) => {
    if (term + what.length <= width) return `${label.padEnd(term)}${what}`;
    if (label.length + 1 + what.length <= width) return `${label} ${what}`;
    return `${label}\n  ${what}`;
  });
}

export function summary(width: number): string {
  return [
    'Usage: assess <command> [options]',
    '',
    wrapLine(
      'Administer online candidate assessments: tests, links, invitations, reports, callbacks, settings.',
      width,
    ),
    '',
    'Common commands:',
    ...commands(width),
    '',
    ...more(width),
    '',
  ].join('\n');
}
