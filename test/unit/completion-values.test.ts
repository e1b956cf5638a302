// Completion offers, for every flag and argument of every command whose schema accepts a fixed
// set of words, exactly that set — read here independently, through zod's core classes (what the classic and mini APIs
// share) — and
// the bash script, run in a real bash (asking the built binary), offers the same. A flag whose values are
// declared some other way (commander choices, a registered `{ completion }`) offers only words its
// schema accepts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import * as z from 'zod/mini';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definitionOf } from '../../src/cli/command.js';
import { buildProgram } from '../../src/cli/program.js';
import { bash } from '../../src/commands/completion/shared/bash.js';
import { collect, type Completes, type CompletionTree } from '../../src/cli/completion/collect.js';
import { inviteSchema } from '../../src/commands/invite/shared/body.js';
import invite from '../../src/commands/invite/command.js';
import { bashComplete } from '../helpers/bash-completion.js';
import { tempDir } from '../helpers/cli.js';
import { memoryProcess } from '../helpers/memory-io.js';

/** Commands whose schema dispatches by hand to these schemas (as in command-flags.test.ts). */
type Schema = z.core.$ZodType;
const DISPATCHING: Record<string, Schema[]> = {
  invite: [inviteSchema(), invite.behaviour.pick!({ csv: 'cohort.csv' })],
};

/** The fields of a command's schema, through zod's core classes (what the classic and mini APIs share). */
function fields(schema: Schema, path: string): Record<string, Schema> {
  if (DISPATCHING[path]) return Object.assign({}, ...DISPATCHING[path].map((s) => fields(s, '')));
  if (schema instanceof z.core.$ZodObject) return schema._zod.def.shape;
  if (schema instanceof z.core.$ZodPipe)
    return fields(schema._zod.def.in instanceof z.core.$ZodTransform ? schema._zod.def.out : schema._zod.def.in, path);
  throw new Error(`${path}: teach this test the ${schema._zod.def.type} schema`);
}

/** The words a field accepts when they are a fixed set, through zod's core classes (what the classic and mini APIs
 * share). */
function fixedWords(s: Schema): string[] | undefined {
  if (s instanceof z.core.$ZodEnum) return Object.values(s._zod.def.entries).map(String);
  if (s instanceof z.core.$ZodLiteral) return [...s._zod.def.values].map(String);
  if (s instanceof z.core.$ZodOptional || s instanceof z.core.$ZodNullable || s instanceof z.core.$ZodDefault)
    return fixedWords(s._zod.def.innerType);
  if (s instanceof z.core.$ZodPipe)
    return fixedWords(s._zod.def.in instanceof z.core.$ZodTransform ? s._zod.def.out : s._zod.def.in);
  if (s instanceof z.core.$ZodUnion) {
    const parts = s._zod.def.options.map((o) => fixedWords(o));
    return parts.every(Boolean) ? [...new Set(parts.flat() as string[])] : undefined;
  }
  return undefined;
}

interface Case {
  where: string;
  words: string[]; // the command line up to the value
  expected: string[];
  /** What completion collected for it. */
  completes: Completes;
}

let tree: CompletionTree;
const cases: Case[] = [];
const extras: Array<{ where: string; field: Schema | undefined; offered: string[] }> = [];

beforeAll(async () => {
  const rt = { proc: memoryProcess({}), signal: new AbortController().signal, debug: false, exitHooks: [] };
  const program: Command = await Promise.resolve(buildProgram(rt));
  tree = await collect(program);
  const walk = (c: Command, path: string[]) => {
    const def = definitionOf(c);
    const info = tree.commands.find((i) => i.path.join(' ') === path.join(' '))!;
    if (def) {
      const shape = fields(def.schema(), path.join(' '));
      for (const o of c.options) {
        if (!o.required && !o.optional) continue;
        const flag = info.flags.find((f) => f.names.includes(o.long!))!;
        const offered = flag.completes.kind === 'words' ? flag.completes.words : [];
        const expected = fixedWords(shape[o.attributeName()]!);
        if (expected)
          cases.push({
            where: `${path.join(' ')} ${o.long}`,
            words: [...path, o.long!],
            expected,
            completes: flag.completes,
          });
        else if (offered.length)
          extras.push({ where: `${path.join(' ')} ${o.long}`, field: shape[o.attributeName()], offered });
      }
      c.registeredArguments.forEach((a, n) => {
        const arg = info.args.find((x) => x.name === a.name());
        if (!arg) return; // hidden from completion (an older spelling's operand)
        const expected = fixedWords(shape[a.name()]!);
        const completes = arg.completes;
        if (expected)
          cases.push({
            where: `${path.join(' ')} <${a.name()}>`,
            words: [...path, ...Array<string>(n).fill('x')],
            expected,
            completes,
          });
        else if (completes.kind === 'words')
          extras.push({ where: `${path.join(' ')} <${a.name()}>`, field: shape[a.name()], offered: completes.words });
      });
    }
    for (const sub of c.commands) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
});

describe('enum-valued flags and arguments', () => {
  it('are found across the commands', async () => {
    expect(cases.length).toBeGreaterThan(15);
    for (const where of [
      'report --type',
      'report export --type',
      'links create --type',
      'attempts list --state',
      'completion <shell>',
    ])
      expect(cases.map((c) => c.where)).toContain(where);
  });

  it('offer exactly their schema values (collected)', async () => {
    for (const { where, completes, expected } of cases)
      expect({ where, offered: completes.kind === 'words' ? [...completes.words].sort() : completes }).toEqual({
        where,
        offered: [...expected].sort(),
      });
  });

  it('declared some other way, offer only words the schema accepts', async () => {
    expect(extras.map((e) => e.where)).toEqual(
      expect.arrayContaining(['config set <key>', 'callbacks process --state']),
    );
    for (const e of extras)
      for (const w of e.offered)
        expect({ where: e.where, w, ok: (e.field ? z.safeParse(e.field, w).success : undefined) ?? true }).toEqual({
          where: e.where,
          w,
          ok: true,
        });
  });
});

describe('the generated bash script', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it('offers exactly each schema value set, for every enum-valued flag and argument', async () => {
    const script = join(tmp.dir, 'assess.bash');
    writeFileSync(script, bash('test'));
    const got = await bashComplete(
      script,
      cases.map((c) => ['assess', ...c.words, '']),
      { cwd: tmp.dir },
    );
    cases.forEach((c, i) => {
      expect({ where: c.where, got: got[i] }).toEqual({ where: c.where, got: [...c.expected].sort() });
    });
  });
});
