// `assess completion`: the bash script is sourced in a real bash and driven the way bash drives
// it (COMP_WORDS / COMP_CWORD, then the completion function), asserting COMPREPLY; it asks the
// built binary (`assess __complete`). All cases of a test run in one bash process. zsh's script is
// the bash one under bashcompinit (parsed here by bash -n); fish's runs in a real fish in
// completion-shells.test.ts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashComplete } from '../helpers/bash-completion.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as runAssess } from '../helpers/in-process.js';

const NOUNS = [
  'auth',
  'config',
  'tests',
  'links',
  'invite',
  'attempts',
  'reattempt',
  'report',
  'callbacks',
  'settings',
  'timezones',
  'sandbox',
  'store',
  'api',
  'completion',
  'mcp',
];
const GLOBALS = [
  '--profile',
  '--json',
  '--csv',
  '--query',
  '--yes',
  '--api',
  '--sandbox',
  '--api-key-file',
  '--key-stdin',
];

let dir: string;
let cleanup: () => void;
let script: string;

/** COMPREPLY for each command line (the last word is the one being completed), in `cwd`. */
function complete(lines: string[][], cwd = join(dir, 'files'), prelude = ''): Promise<string[][]> {
  return bashComplete(script, lines, { cwd, prelude });
}
const one = async (...words: string[]) => (await complete([['assess', ...words]]))[0]!;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  mkdirSync(join(dir, 'files', 'out dir'), { recursive: true });
  for (const f of ['cohort.csv', 'notes.txt', 'with space.csv']) writeFileSync(join(dir, 'files', f), '');
  const r = await runAssess(['completion', 'bash']);
  expect(r.code, r.stderr).toBe(0);
  script = join(dir, 'assess.bash');
  writeFileSync(script, r.stdout);
});
afterAll(() => cleanup());

describe('assess completion bash, driven in bash', () => {
  it('offers the nouns (and help) first, never the global flags, until a - is typed', async () => {
    expect(await one('')).toEqual([...NOUNS, 'help'].sort());
    expect(await one('lin')).toEqual(['links']);
    expect(await one('attempts', '')).toEqual(['cancel', 'list', 'wait']);
    const flags = await one('attempts', '-');
    for (const g of GLOBALS) expect(flags).toContain(g);
    expect(flags).not.toContain('--api-key'); // hidden: refused on the command line
    expect(flags).not.toContain('list');
  });

  it("offers a command's own flags when nothing else is left to type; nothing while an id is due", async () => {
    expect(await one('tests', 'list', '')).toEqual(['--all', '--page', '--page-size']);
    expect(await one('links', 'get', '1001', '')).toEqual([]);
    expect(await one('tests', 'list', '--page-')).toEqual(['--page-size']);
  });

  it("offers each flag's own values from its schema: report --type is not links --type", async () => {
    const [report, exportType, link, state, until, proctoring, image, api] = await complete([
      ['assess', 'report', '900001', '--type', ''],
      ['assess', 'report', 'export', '--type', ''],
      ['assess', 'links', 'create', '1001', '--type', ''],
      ['assess', 'attempts', 'list', '--state', ''],
      ['assess', 'attempts', 'wait', '--until', ''],
      ['assess', 'invite', '1001', '--proctoring', ''],
      ['assess', 'invite', '1001', '--image-proctoring', ''],
      ['assess', 'tests', 'list', '--api', ''],
    ]);
    expect(report).toEqual(['both', 'skills', 'summary']);
    expect(exportType).toEqual(['both', 'skills', 'summary']);
    expect(link).toEqual(['email', 'open']);
    expect(state).toEqual(['cancelled', 'completed', 'expired', 'in-progress', 'pending']);
    expect(until).toEqual(['any-terminal', 'complete', 'started']);
    expect(proctoring).toEqual(['disabled', 'image', 'video']);
    expect(image).toEqual(['0', '1']);
    expect(api).toEqual(['v2', 'v3']);
  });

  it('completes file names for file flags and arguments, directories for --out', async () => {
    const files = ['cohort.csv', 'notes.txt', 'out dir', 'with space.csv'];
    const [csv, fromCsv, output, short, keyFile, state, verify, out, partial, spaced] = await complete([
      ['assess', 'invite', '1001', '--csv', ''],
      ['assess', 'invite', '1001', '--from-csv', ''],
      ['assess', 'report', '900001', '--output', ''],
      ['assess', 'report', '900001', '-o', ''],
      ['assess', '--api-key-file', ''],
      ['assess', 'sandbox', 'serve', '--state', ''],
      ['assess', 'callbacks', 'verify', ''],
      ['assess', 'report', 'export', '--out', ''],
      ['assess', 'settings', 'set', '1001', '--file', 'co'],
      ['assess', 'invite', '1001', '--from-csv', 'with'],
    ]);
    for (const got of [csv, fromCsv, output, short, keyFile, state, verify]) expect(got).toEqual(files);
    expect(out).toEqual(['out dir']);
    expect(partial).toEqual(['cohort.csv']);
    expect(spaced).toEqual(['with space.csv']); // one word, not two
  });

  it('under zsh (bashcompinit inserts names as given) quotes file names itself', async () => {
    const [spaced, plain] = await complete(
      [
        ['assess', 'invite', '1001', '--from-csv', 'with'],
        ['assess', 'report', '900001', '-o', 'co'],
      ],
      join(dir, 'files'),
      'ZSH_VERSION=5.9',
    );
    expect(spaced).toEqual(['with\\ space.csv']);
    expect(plain).toEqual(['cohort.csv']);
  });

  it('offers nothing for a value that is free text, and no verbs in its place', async () => {
    expect(await one('invite', '1001', '--email', '')).toEqual([]);
    expect(await one('--query', '')).toEqual([]);
  });

  it('offers setting names for config get/set/unset, and the values of the one being set', async () => {
    const [get, set, unset, output, api, warn, timeout] = await complete([
      ['assess', 'config', 'get', ''],
      ['assess', 'config', 'set', ''],
      ['assess', 'config', 'unset', ''],
      ['assess', 'config', 'set', 'output', ''],
      ['assess', 'config', 'set', 'api', ''],
      ['assess', 'config', 'set', 'v2.warn', ''],
      ['assess', 'config', 'set', 'timeout', ''],
    ]);
    for (const k of ['base-url', 'output', 'timeout', 'api', 'v2.warn']) {
      expect(get).toContain(k);
      expect(set).toContain(k);
      expect(unset).toContain(k);
    }
    expect(get).toContain('api-key'); // shown masked
    expect(set).not.toContain('api-key'); // refused: auth login sets it
    expect(output).toEqual(['csv', 'json', 'ndjson', 'table', 'tsv']);
    expect(api).toEqual(['v2', 'v3']);
    expect(warn).toEqual(['false', 'true']);
    expect(timeout).toEqual([]);
  });

  it('reads the line as commander does: flag values skipped, --flag=value, --json [fields], help', async () => {
    const [afterProfile, afterEq, eqValue, json, jsonList, jsonThenVerb, help, helpVerb, simulate] = await complete([
      ['assess', '--profile', 'work', 'links', ''],
      ['assess', 'report', 'export', '--type', '=', 'b'],
      ['assess', 'report', 'export', '--type', '=', 'both', '--format', ''],
      ['assess', 'tests', 'list', '--json', ''],
      ['assess', 'tests', 'list', '--json', 'testId,test'],
      ['assess', 'attempts', '--json', '-'],
      ['assess', 'help', ''],
      ['assess', 'help', 'attempts', ''],
      ['assess', 'sandbox', 'simulate', '900001', ''],
    ]);
    expect(afterProfile).toEqual(['create', 'get', 'list', 'migrate', 'update']);
    expect(afterEq).toEqual(['both']);
    expect(eqValue).toEqual(['csv', 'json', 'ndjson']);
    expect(json).toEqual(['accessKey', 'duration', 'questions', 'testId', 'testName', 'testStatus']);
    expect(jsonList).toEqual(['testId,testName', 'testId,testStatus']); // not testId again
    expect(jsonThenVerb).toContain('--yes'); // an optional value is not taken from a flag
    expect(help).toEqual([...NOUNS].sort());
    expect(helpVerb).toEqual(['cancel', 'list', 'wait']);
    expect(simulate).toEqual(['complete', 'expire', 'leave', 'start', 'terminate']);
  });
});

describe('assess completion zsh and fish', () => {
  it('zsh: the bash script under bashcompinit, valid shell syntax', async () => {
    const r = await runAssess(['completion', 'zsh']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/bashcompinit/);
    const bash = (await runAssess(['completion', 'bash'])).stdout;
    const body = bash.slice(bash.indexOf('_assess_words() {'), bash.indexOf('complete -F _assess assess'));
    expect(body).toContain('__complete --');
    expect(r.stdout).toContain(body); // one script for both shells
    expect(r.stdout.trimEnd().endsWith('complete -F _assess assess')).toBe(true);
    const file = join(dir, 'assess.zsh');
    writeFileSync(file, r.stdout);
    execFileSync('bash', ['-n', file]); // throws on a syntax error
  });

  it('fish: one completion that asks assess __complete (run in a real fish in completion-shells.test.ts)', async () => {
    const r = await runAssess(['completion', 'fish']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toContain("complete -c assess -f -a '(__assess_complete)'");
    expect(r.stdout).toContain('__complete -- $words $cur');
  });

  it('an unknown shell is a usage error', async () => {
    const r = await runAssess(['completion', 'powershell']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/<shell>: must be one of bash, zsh, fish/);
  });
});
