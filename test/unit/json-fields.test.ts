// Declared `--json` fields (cli/json-fields.ts): built from wire schemas and column specs, checked
// before run() with the globals resolved (a profile's `api: v2` included), and accepted by the
// printer even when one object lacks an optional field.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { declaredFields, fieldsOf } from '../../src/cli/json-fields.js';
import { loadNouns } from '../../src/commands/index.js';
import type { Context, GlobalOptions } from '../../src/context.js';
import { UsageError } from '../../src/errors.js';
import { Printer } from '../../src/output/printer.js';
import { tempDir } from '../helpers/cli.js';
import { memoryProcess } from '../helpers/memory-io.js';
import { PLAIN } from '../../src/output/style.js';

const NOUNS = await loadNouns();

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('fieldsOf', () => {
  it("joins names and column keys, first seen first, with each field's table heading", () => {
    const list = fieldsOf(
      ['a', 'b'],
      ['c', 'a'],
      [
        { key: 'b', header: 'Bee' },
        { key: 'd', header: 'Dee' },
        { key: 'a.x', header: 'Ex' },
        { key: 'a.y', header: 'Why' },
      ],
    );
    expect([...list]).toEqual(['a', 'b', 'c', 'd']);
    expect(Object.fromEntries(list.headings!)).toEqual({ a: ['Ex', 'Why'], b: ['Bee'], d: ['Dee'] });
  });
});

describe('every declaration', () => {
  const commands = NOUNS.flatMap((n) =>
    [...(n.self ? [n.self] : []), ...n.verbs].map((c) => [`${n.name} ${c.name}`, c] as const),
  );
  const globals = (api: 'v3' | 'v2') => ({ api }) as GlobalOptions;
  const inputs = [
    {},
    { pdf: true },
    { sections: true },
    { dryRun: true },
    { link: '5003' },
    { mode: 'single', single: {} },
    { mode: 'bulk', bulk: {} },
    { mode: 'bulk', bulk: { dryRun: true } },
  ];

  it.each(commands)('%s resolves to unique names for v3 and v2', async (_name, c) => {
    for (const api of ['v3', 'v2'] as const)
      for (const input of inputs) {
        const list = await declaredFields(c.jsonFields, input, globals(api));
        if (!list) continue;
        expect(list.length).toBeGreaterThan(0);
        expect(new Set(list).size).toBe(list.length);
      }
  });

  it('the commands the contract names declare their fields', () => {
    const declared = commands.filter(([, c]) => c.jsonFields !== undefined).map(([name]) => name);
    for (const name of [
      'tests list',
      'tests get',
      'links list',
      'links get',
      'links create',
      'links update',
      'attempts list',
      'attempts cancel',
      'report report',
      'reattempt reattempt',
      'invite invite',
      'callbacks process',
      'settings get',
      'settings set',
    ])
      expect(declared).toContain(name);
  });
});

describe('the up-front check', () => {
  it("follows the profile's api: v2 field names, before anything is sent", async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    // Nothing listens on port 9: a request would fail with exit 6, not 2.
    const env = {
      ASSESS_CONFIG_DIR: t.dir,
      CI: 'true',
      NO_COLOR: '1',
      ASSESS_API_KEY: 'sk_test_unit_1234567890',
      ASSESS_BASE_URL: 'http://127.0.0.1:9',
      ASSESS_BASE_URL_V2: 'http://127.0.0.1:9',
    };
    expect(await runCli(['config', 'set', 'api', 'v2'], memoryProcess(env))).toBe(0);
    const p = memoryProcess(env);
    expect(await runCli(['tests', 'get', '1001', '--json', 'totalPoints'], p)).toBe(2);
    expect(p.err()).toBe(
      "error: --json: unknown field 'totalPoints'\n  valid fields (table heading): testId (Test ID), testName " +
        '(Name), accessKey (Access key), duration (Minutes), questions (Questions), testStatus (Status), sections\n',
    );
    expect(p.out()).toBe('');
  });
});

describe('the printer after the up-front check', () => {
  function ctxWith(fields: string[], jsonFields?: string[]) {
    let out = '';
    const ctx = {
      io: { stdout: { write: (s: string) => (out += s) }, color: false, style: PLAIN },
      globals: { output: 'json', fields },
      jsonFields,
    } as unknown as Context;
    return { ctx, out: () => out };
  }

  it('accepts a declared field the object happens to lack (an optional one), printed as null', async () => {
    const t = ctxWith(['testInvitationId', 'status'], ['testInvitationId', 'testUrl', 'status']);
    await new Printer(t.ctx).object({ testInvitationId: 7, testUrl: 'https://x' }, { fields: [] });
    expect(JSON.parse(t.out())).toEqual({ testInvitationId: 7, status: null });
  });

  it('keeps its own check for commands that declare nothing', async () => {
    const t = ctxWith(['nope']);
    const err = await new Printer(t.ctx)
      .list([{ a: 1 }], { columns: [{ key: 'a', header: 'A' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).hint).toBe('valid fields (table heading): a (A)');
  });
});

describe('--help lists the fields with their table headings', () => {
  it('tests list: each field, its column heading beside it', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const p = memoryProcess({ ASSESS_CONFIG_DIR: t.dir, CI: 'true', NO_COLOR: '1' });
    expect(await runCli(['tests', 'list', '--help'], p)).toBe(0);
    expect(p.out()).toContain(
      [
        'Fields (--json a,b and --query take the field; the table heading in brackets):',
        '  testId      (Test ID)',
        '  testName    (Name)',
        '  accessKey',
        '  duration    (Minutes)',
        '  questions   (Questions)',
        '  testStatus  (Status)',
      ].join('\n'),
    );
  });

  it('a command whose output has no table headings lists none', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const p = memoryProcess({ ASSESS_CONFIG_DIR: t.dir, CI: 'true', NO_COLOR: '1' });
    expect(await runCli(['settings', 'get', '--help'], p)).toBe(0);
    expect(p.out()).not.toContain('Fields (');
  });
});
