// Every command's flags and arguments are declared once (`flags`/`args` in its definition) and
// everything else is derived from that declaration: this checks the derivation for every command —
// each declared flag is an option of the built commander Command, spelled and shown as declared,
// and a key of the zod object validation uses; nothing commander knows is missing from the
// declaration; and describeFlags reports them all.
import { Command } from 'commander';
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { buildCommand, describeFlags, flag, type CommandDef } from '../../src/cli/command.js';
import { addDeclared, kebab, schemaOf } from '../../src/cli/flags.js';
import { loadNouns } from '../../src/commands/index.js';

const NOUNS = await loadNouns();

const commands: Array<[string, CommandDef]> = NOUNS.flatMap((n) => [
  ...(n.self ? [[n.name, n.self] as [string, CommandDef]] : []),
  ...n.verbs.map((v) => [`${n.name} ${v.name}`, v] as [string, CommandDef]),
]);

const build = (def: CommandDef) =>
  buildCommand(
    def,
    async () => {
      throw new Error('not run');
    },
    new Command(def.name),
  );

describe('flags declared once, derived everywhere', () => {
  it('covers every command', () => {
    expect(commands.length).toBeGreaterThan(30);
  });

  it.each(commands)('%s', (path, def) => {
    const cmd = build(def);
    const flags = def.flags ?? {};
    const args = def.args ?? {};
    const schema = def.schema();
    expect(schema, path).toBeInstanceOf(z.ZodMiniObject);
    const keys = Object.keys((schema as z.ZodMiniObject).shape);
    // the validation object: every argument, then every flag, nothing else
    expect({ path, keys }).toEqual({ path, keys: [...Object.keys(args), ...Object.keys(flags)] });
    // commander: the arguments in order, each flag (and its negation) as declared
    expect({ path, args: cmd.registeredArguments.map((a) => a.name()) }).toEqual({ path, args: Object.keys(args) });
    const help = cmd.helpInformation();
    for (const [key, f] of Object.entries(flags)) {
      const long = `--${f.long ?? kebab(key)}`;
      const opt = cmd.options.find((o) => o.long === long);
      expect({ path, long, found: Boolean(opt) }).toEqual({ path, long, found: true });
      expect({ path, long, key: opt!.attributeName() }).toEqual({ path, long, key });
      expect({ path, long, short: opt!.short }).toEqual({ path, long, short: f.short ? `-${f.short}` : undefined });
      expect({ path, long, takes: opt!.required ? 'required' : opt!.optional ? 'optional' : 'none' }).toEqual({
        path,
        long,
        takes: f.value === undefined ? 'none' : f.optionalValue ? 'optional' : 'required',
      });
      expect({ path, long, inHelp: help.includes(`${long}${f.value === undefined ? '' : ' '}`) }).toEqual({
        path,
        long,
        inHelp: !f.hidden,
      });
      if (f.negate !== undefined)
        expect(
          cmd.options.some((o) => o.long === `--no-${f.long ?? kebab(key)}` && o.attributeName() === key),
          `${path} --no-${key}`,
        ).toBe(true);
    }
    // and nothing commander knows that the declaration does not
    const declared = new Set(Object.keys(flags));
    expect({ path, undeclared: cmd.options.map((o) => o.attributeName()).filter((k) => !declared.has(k)) }).toEqual({
      path,
      undeclared: [],
    });
    // describeFlags: one entry per argument and flag, with its schema
    const described = describeFlags(def);
    expect(described.map((d) => d.name)).toEqual([...Object.keys(args), ...Object.keys(flags)]);
    for (const d of described) expect(d.schema, `${path} ${d.name}`).toBe((schema as z.ZodMiniObject).shape[d.name]);
  });
});

describe('describeFlags', () => {
  it('gives help, value name, short name, required and choices', () => {
    const tests = NOUNS.find((n) => n.name === 'tests')!.verbs.find((v) => v.name === 'list')!;
    const page = describeFlags(tests).find((d) => d.name === 'pageSize')!;
    expect(page).toMatchObject({
      kind: 'flag',
      label: '--page-size',
      help: 'tests per page, 1-100 (default 20)',
      value: 'n',
      required: false,
    });
    const report = NOUNS.find((n) => n.name === 'report')!.self!;
    const d = describeFlags(report);
    expect(d.find((x) => x.name === 'invitationId')).toMatchObject({
      kind: 'arg',
      label: '<invitationId>',
      required: true,
    });
    expect(d.find((x) => x.name === 'output')).toMatchObject({ short: 'o', value: 'file', required: false });
    expect(d.find((x) => x.name === 'type')!.choices).toEqual(['summary', 'skills', 'both']);
  });
});

describe('one declaration', () => {
  const decl = {
    count: flag('how many', { value: 'n', short: 'c', default: '3' }, () => z.coerce.number().check(z.int())),
    sign: flag('sign them', { negate: 'do not sign' }, () => z.optional(z.boolean())),
    tag: flag('a tag (repeatable)', { value: 'tag', repeat: true }, () => z._default(z.array(z.string()), [])),
    secret: flag('', { value: 'x', hidden: true }, () => z.optional(z.string())),
  };

  it('gives commander options that parse into what the zod object accepts', () => {
    const cmd = new Command('x').exitOverride();
    addDeclared(cmd, {}, decl);
    cmd.parse(['-c', '5', '--no-sign', '--tag', 'a', '--tag', 'b'], { from: 'user' });
    expect(schemaOf(decl).parse(cmd.opts())).toEqual({ count: 5, sign: false, tag: ['a', 'b'] });
    const help = cmd.helpInformation();
    expect(help).toContain('-c, --count <n>');
    expect(help).toContain('(default: "3")');
    expect(help).toContain('--no-sign');
    expect(help).not.toContain('--secret');
  });
});
