// The examples suite runs plain `assess …` lines in-process: its word splitting must be bash's.
import { expect, it } from 'vitest';
import { plainArgv } from '../helpers/examples-suite.js';
it('splits example lines as bash would, and leaves shell syntax to bash', () => {
  expect(plainArgv('assess invite 1001 --email ann@example.com --name "Ann Lee"')).toEqual([
    'invite',
    '1001',
    '--email',
    'ann@example.com',
    '--name',
    'Ann Lee',
  ]);
  expect(plainArgv("assess x --exec 'jq -r .S >> s.txt'   # c")).toEqual(['x', '--exec', 'jq -r .S >> s.txt']);
  expect(plainArgv('assess settings set 1001 --set a.b="Java L2" --yes')).toEqual([
    'settings',
    'set',
    '1001',
    '--set',
    'a.b=Java L2',
    '--yes',
  ]);
  expect(plainArgv('assess links list 1001 --csv > links.csv')).toBeUndefined();
  expect(plainArgv('ASSESS_X=1 assess a')).toBeUndefined();
  expect(plainArgv('assess timezones --search "us & canada" --json timeZoneId,name')).toEqual([
    'timezones',
    '--search',
    'us & canada',
    '--json',
    'timeZoneId,name',
  ]);
  expect(plainArgv('assess attempts wait 900001 --until started && echo x')).toBeUndefined();
});
