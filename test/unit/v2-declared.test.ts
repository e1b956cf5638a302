// v2 is declared once per command (CommandDef.v2) and dispatched or refused by buildCommand.
import { describe, expect, it } from 'vitest';
import { loadHandler, type CommandDef } from '../../src/cli/command.js';
import { runCli } from '../../src/cli/program.js';
import { loadNouns } from '../../src/commands/index.js';
import { tempDir } from '../helpers/cli.js';
import { memoryProcess } from '../helpers/memory-io.js';

const NOUNS = await loadNouns();

const all: Array<[string, CommandDef]> = NOUNS.flatMap((n) => [
  ...(n.self ? [[n.name, n.self] as [string, CommandDef]] : []),
  ...n.verbs.map((v) => [`${n.name} ${v.name}`, v] as [string, CommandDef]),
]);

/** Commands that call the service's API: each must say what it does under v2. */
const API_COMMANDS = [
  'tests list',
  'tests get',
  'links list',
  'links get',
  'links create',
  'links update',
  'invite',
  'attempts list',
  'attempts cancel',
  'reattempt',
  'report',
  'report export',
  'callbacks process',
  'settings get',
  'settings set',
];

describe('v2 declared once', () => {
  it.each(API_COMMANDS)('%s declares its v2 side (its handler runs it, or why not)', async (path) => {
    const def = all.find(([p]) => p === path)?.[1];
    expect(def, path).toBeDefined();
    expect(def!.v2, path).toBeDefined();
    const v2 = def!.v2!;
    if ('unsupported' in v2) expect(typeof v2.unsupported, path).toBe('string');
    else expect(typeof (await loadHandler(def!)).runV2, path).toBe('function');
  });

  const refused = all.filter(([, d]) => d.v2 && 'unsupported' in d.v2).map(([p, d]) => [p, d] as const);
  it('the unsupported ones are the commands v2 has no operation for', () => {
    expect(refused.map(([p]) => p).sort()).toEqual(
      [
        'attempts cancel',
        'attempts list',
        'attempts wait',
        'callbacks process',
        'callbacks reconcile',
        'reattempt',
        'report export',
        'report stats',
        'settings get',
        'settings set',
        'timezones',
      ].sort(),
    );
  });

  it.each([
    [
      ['--api', 'v2', 'attempts', 'cancel', '5001', '--yes'],
      /attempts cancel: not available in the v2 API \(v2 cannot cancel an invitation\)/,
    ],
    [['--api', 'v2', 'settings', 'get', '1001'], /settings get: not available in the v2 API/],
    [['--api', 'v2', 'invite', '1001', '--csv', 'x.csv'], /invite --from-csv: not available in the v2 API/],
    [
      ['links', 'create', '1001', '--name', 'A', '--anytime', '--tz', '1'],
      /--anytime: only with --api v2 \(v3 links always have a schedule/,
    ],
    [['report', '5001', '--sections'], /--sections: only with --api v2/],
  ])('%j → exit 2 before anything is sent', async (argv, message) => {
    const t = tempDir();
    // an address nothing listens on: a request would be a network error (6), not a usage error
    const p = memoryProcess({
      ASSESS_CONFIG_DIR: t.dir,
      ASSESS_API_KEY: 'k-unit-123',
      ASSESS_BASE_URL: 'http://127.0.0.1:9',
      ASSESS_BASE_URL_V2: 'http://127.0.0.1:9',
    });
    expect(await runCli(argv as string[], p)).toBe(2);
    expect(p.err()).toMatch(message);
    t.cleanup();
  });
});
