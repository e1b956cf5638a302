// Every command's flags and arguments and its zod schema name the same keys: a flag the schema
// does not know is dropped silently (zod strips unknown keys), and a schema key no flag sets is
// a dead branch (or a typo of the flag's attribute name).
import { Command } from 'commander';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { buildCommand, type CommandDef } from '../../src/cli/command.js';
import { loadNouns } from '../../src/commands/index.js';
import { inviteSchema } from '../../src/commands/invite/shared/body.js';
import { bulkSchema } from '../../src/commands/invite/command.js';

const NOUNS = await loadNouns();

/**
 * Commands whose schema dispatches by hand (a record transformed into one of several schemas):
 * the schemas it dispatches to, and the keys it reads itself.
 */
const DISPATCHING: Record<string, { schemas: z.ZodType[]; own: string[] }> = {
  // `invite <testId>`: one invitation, or with --from-csv (or the old --csv FILE, read as an operand) a bulk run
  invite: { schemas: [inviteSchema, bulkSchema], own: ['csvFile', 'fromCsv'] },
};

/** The keys a schema reads from its input (the input side of transforms and pipes). */
function inputKeys(schema: z.ZodType, where: string): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  // z.preprocess(fn, object) is a pipe from a transform into the object; .transform() a pipe out of it
  if (schema instanceof z.ZodPipe) return inputKeys((schema.in instanceof z.ZodTransform ? schema.out : schema.in) as z.ZodType, where);
  if (schema instanceof z.ZodUnion) return [...new Set(schema.options.flatMap((o) => inputKeys(o as z.ZodType, where)))];
  if (schema instanceof z.ZodIntersection) return [...inputKeys(schema.def.left as z.ZodType, where), ...inputKeys(schema.def.right as z.ZodType, where)];
  throw new Error(`${where}: cannot read the keys of a ${schema.def.type} schema; teach inputKeys this shape`);
}

const commands: Array<[string, CommandDef]> = NOUNS.flatMap((n) => [
  ...(n.self ? [[n.name, n.self] as [string, CommandDef]] : []),
  ...n.verbs.map((v) => [`${n.name} ${v.name}`, v] as [string, CommandDef]),
]);

describe('command flags match their schemas', () => {
  it('covers every command', () => {
    expect(commands.length).toBeGreaterThan(30);
  });

  it.each(commands)('%s', (path, def) => {
    const cmd = buildCommand(
      def,
      async () => {
        throw new Error('not run');
      },
      new Command(def.name),
    );
    const flags = cmd.options.map((o) => o.attributeName());
    const args = cmd.registeredArguments.map((a) => a.name());
    const schema = def.schema();
    const d = schema instanceof z.ZodPipe && schema.in instanceof z.ZodRecord ? DISPATCHING[path] : undefined;
    if (schema instanceof z.ZodPipe && schema.in instanceof z.ZodRecord && !d) throw new Error(`${path}: a hand-dispatching schema; list it in DISPATCHING`);
    const keys = d ? [...new Set([...d.schemas.flatMap((s) => inputKeys(s, path)), ...d.own])] : inputKeys(schema, path);
    expect({ path, unknownToSchema: [...flags, ...args].filter((k) => !keys.includes(k)) }).toEqual({ path, unknownToSchema: [] });
    expect({ path, setByNoFlag: keys.filter((k) => !flags.includes(k) && !args.includes(k)) }).toEqual({ path, setByNoFlag: [] });
  });
});
