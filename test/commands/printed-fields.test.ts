// What a command declares it can print (`--json a,b`, the table's columns, `--help`'s field list)
// is what it prints: every declared field — which includes every column's field — is a key of the
// object or rows the command writes under `--json`, for the commands that print the service's
// objects (v3 and v2), against the sandbox. A column computed from another field, or a field list
// taken from the wrong wire object, fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandDef } from '../../src/cli/command.js';
import { declaredFields } from '../../src/cli/json-fields.js';
import { loadNouns } from '../../src/commands/index.js';
import type { GlobalOptions } from '../../src/context.js';
import { runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
beforeAll(async () => (s = await startTestSandbox()));
afterAll(() => s?.close());

const NOUNS = await loadNouns();

function definition(noun: string, verb?: string): CommandDef {
  const n = NOUNS.find((x) => x.name === noun)!;
  const def = verb ? n.verbs.find((v) => v.name === verb) : n.self;
  if (!def) throw new Error(`no command ${noun} ${verb ?? ''}`);
  return def as CommandDef;
}

async function declared(def: CommandDef, api: 'v3' | 'v2', input: Record<string, unknown>): Promise<readonly string[]> {
  const decl = api === 'v2' && def.v2 && !('unsupported' in def.v2) ? def.v2.jsonFields : def.jsonFields;
  const list = await declaredFields(decl, input, { api } as GlobalOptions);
  if (!list) throw new Error('no declared fields');
  return list;
}

function printedKeys(stdout: string): Set<string> {
  const data = JSON.parse(stdout) as Record<string, unknown> | Array<Record<string, unknown>>;
  const rows = Array.isArray(data) ? data : [data];
  return new Set(rows.flatMap((r) => Object.keys(r)));
}

let n = 0;
async function invitation(): Promise<string> {
  const r = await s.service<{ testInvitationId: number }>('/v3/tests/1001/invite', {
    email: `fields${++n}@example.com`,
    name: 'Fields Candidate',
  });
  return String(r.testInvitationId);
}

const INVITE = ['--email', 'printed@example.com', '--name', 'Printed Fields'];
/** A command, and the argv of its runs (several where one run cannot show every field: a report's Skills). */
type Case = [
  label: string,
  noun: string,
  verb: string | undefined,
  args: () => Promise<string[]> | string[] | string[][],
  input?: Record<string, unknown>,
];

const V3: Case[] = [
  ['tests list', 'tests', 'list', () => ['tests', 'list']],
  ['tests get', 'tests', 'get', () => ['tests', 'get', '1001']],
  ['links list', 'links', 'list', () => ['links', 'list', '1001']],
  ['links get', 'links', 'get', () => ['links', 'get', '1001', '5003']],
  [
    'attempts list',
    'attempts',
    'list',
    () => ['attempts', 'list', '--state', 'completed', '--from', '2000-01-01', '--to', 'now'],
  ],
  ['attempts cancel', 'attempts', 'cancel', async () => ['attempts', 'cancel', await invitation(), '--yes']],
  // top-level Skills come with --type skills; sections (with their skills) with summary and both
  [
    'report',
    'report',
    undefined,
    () => [
      ['report', '900001', '--type', 'both'],
      ['report', '900001', '--type', 'skills'],
    ],
  ],
  ['invite', 'invite', undefined, () => ['invite', '1001', ...INVITE], { mode: 'single', single: {} }],
  ['timezones', 'timezones', undefined, () => ['timezones']],
  ['settings get', 'settings', 'get', () => ['settings', 'get', '1001']],
  // rows the CLI makes itself
  ['auth status', 'auth', 'status', () => ['auth', 'status']],
  ['config list', 'config', 'list', () => ['config', 'list']],
];

const V2: Case[] = [
  ['tests list', 'tests', 'list', () => ['tests', 'list']],
  ['tests get', 'tests', 'get', () => ['tests', 'get', '1001']],
  ['links list', 'links', 'list', () => ['links', 'list', '1001']],
  ['report', 'report', undefined, () => ['report', '900001']],
  ['report --sections', 'report', undefined, () => ['report', '900001', '--sections'], { sections: true }],
  ['invite', 'invite', undefined, () => ['invite', '1001', ...INVITE], { mode: 'single', single: {} }],
];

describe.each([
  ['v3', V3],
  ['v2', V2],
] as const)('%s: every declared field is printed', (api, cases) => {
  it.each(cases)('%s', async (_label, noun, verb, args, input = {}) => {
    const fields = await declared(definition(noun, verb), api, input);
    const given = await args();
    const runs = Array.isArray(given[0]) ? (given as string[][]) : [given as string[]];
    const keys = new Set<string>();
    for (const run of runs) {
      const r = await runInProcess([...(api === 'v2' ? ['--api', 'v2'] : []), ...run, '--json'], { env: s.env });
      expect(r.code, r.stderr).toBe(0);
      printedKeys(r.stdout).forEach((k) => keys.add(k));
    }
    expect(fields.filter((f) => !keys.has(f))).toEqual([]);
  });
});

describe('the check can fail', () => {
  it('a declared field the rows lack is found', () => {
    const keys = printedKeys('[{"testId":1}]');
    expect(['testId', 'testStatus'].filter((f) => !keys.has(f))).toEqual(['testStatus']);
  });
});
