// What completion knows, read from the running command tree and each command's definition:
// every command path, its verbs, flags (which take a value, and what that value completes to)
// and positional arguments. Nothing here is a hand-kept list of flags or values:
// - enum values come from the zod schema the command validates with (or commander's choices);
// - a value or argument named `file` (`--csv <file>`, `[csvFile]`) completes file names, one
//   named `dir` (`--out <dir>`) directories;
// - `--json [fields]` completes the fields the command declares (`jsonFields`): the list its help
//   prints (for a command whose fields depend on its flags, those of its plain form);
// - a schema field may register `{ completion }` (`.register(z.globalRegistry, …)`) where its set is checked in code;
// - `--profile` completes the profile names of the config file, read when completing.
// Completion asks for one command's part at each Tab (./complete.ts); `collect` gives the whole tree.
import type { Argument, Command, Option } from 'commander';
import { definitionOf, type CommandDef } from '../command.js';
import { PROGRAM_OWN } from '../help-pages.js';
import { plainFields } from '../json-fields.js';
import { schemaWords, type CompletionMeta } from '../schema-values.js';

export type Completes =
  | { kind: 'none' }
  | { kind: 'file' }
  | { kind: 'dir' }
  | { kind: 'words'; words: string[] }
  /** A comma-separated list of these words (`--json a,b`). */
  | { kind: 'list'; words: string[] }
  /** Words chosen by the word of an earlier argument (`config set output <value>`). */
  | { kind: 'after'; arg: number; words: Record<string, string[]> }
  /** `key=value` with one of these keys (`settings set --set`). */
  | { kind: 'keys'; words: string[] }
  /** The profiles of the config file (and the one in use), read when completing. */
  | { kind: 'profiles' };

export interface FlagShape {
  /** Long and short spellings: `--output`, `-o`. */
  names: string[];
  takes: 'none' | 'required' | 'optional';
  /** Hidden from help and never offered; still known, so its value is skipped. */
  hidden: boolean;
}
export interface FlagInfo extends FlagShape {
  completes: Completes;
}

export interface ArgShape {
  name: string;
  variadic: boolean;
}
export interface ArgInfo extends ArgShape {
  completes: Completes;
}

/** What a Tab walks through: a command's verbs, flags and arguments, without what their values complete to. */
export interface CommandShape {
  /** `['links', 'create']`; `[]` is the program itself. */
  path: string[];
  subcommands: string[];
  /** The command's own flags (the program's are in `CompletionTree.globals`). */
  flags: FlagShape[];
  args: ArgShape[];
}

export interface CommandInfo extends CommandShape {
  flags: FlagInfo[];
  args: ArgInfo[];
  /** The fields `--json` may name, where the command declares them. */
  jsonFields?: string[];
}

export interface CompletionTree {
  globals: FlagInfo[];
  commands: CommandInfo[];
}

const NONE: Completes = { kind: 'none' };

/** Where a program option's values come from; the others are free text or read from commander. */
const GLOBAL_VALUES: Record<string, Completes> = {
  '--profile': { kind: 'profiles' }, // read at completion time: profiles come and go
};

// (Array.isArray does not narrow a readonly array out of a union)
const isWords = (m: CompletionMeta | undefined): m is readonly string[] => Array.isArray(m);

/** A flag's or argument's schema, from its own declaration. */
const declared = (def: CommandDef | undefined, key: string) => (def?.flags?.[key] ?? def?.args?.[key])?.schema();

/** What a flag's or argument's schema says it takes (`words`: one description of it), else its name. */
async function byName(name: string, words: ReturnType<typeof schemaWords>): Promise<Completes> {
  const { meta, values } = words;
  if (isWords(meta)) return { kind: 'words', words: [...meta] };
  if (meta && 'list' in meta) return { kind: 'list', words: [...meta.list] };
  if (meta && 'keys' in meta) return { kind: 'keys', words: [...(await meta.keys())] };
  if (values?.length) return { kind: 'words', words: values };
  if (/^file$|[-_]file$|[a-z]File$/.test(name)) return { kind: 'file' }; // file, secret-file, csvFile; not profile
  if (/^dir$|[-_]dir$|[a-z]Dir$/.test(name)) return { kind: 'dir' };
  return NONE;
}

export function flagShape(o: Option): FlagShape {
  return {
    names: [o.long, o.short].filter((n): n is string => Boolean(n)),
    takes: o.required ? 'required' : o.optional ? 'optional' : 'none',
    hidden: Boolean((o as Option & { hidden?: boolean }).hidden),
  };
}

/** What a flag's value completes to (`def`: its command's definition; none for the program's own). */
export async function flagCompletes(o: Option, def: CommandDef | undefined): Promise<Completes> {
  if (!o.required && !o.optional) return NONE;
  const placeholder = /[<[]([^>\]]*)[>\]]/.exec(o.flags)?.[1] ?? '';
  const choices = (o as Option & { argChoices?: string[] }).argChoices;
  if (choices?.length) return { kind: 'words', words: [...choices] };
  if (!def && o.long && GLOBAL_VALUES[o.long]) return GLOBAL_VALUES[o.long]!;
  return byName(placeholder, schemaWords(declared(def, o.attributeName())));
}

const flagInfo = async (o: Option, def: CommandDef | undefined): Promise<FlagInfo> => ({
  ...flagShape(o),
  completes: await flagCompletes(o, def),
});

/** The arguments completion offers (an older spelling's operand is hidden). */
function argsOf(c: Command, def: CommandDef | undefined): readonly Argument[] {
  const args = (c as Command & { registeredArguments: readonly Argument[] }).registeredArguments;
  return args.filter((a) => !def?.args?.[a.name()]?.hidden);
}

/** What the command's n-th argument (of those offered) completes to. */
export async function argCompletes(c: Command, n: number): Promise<Completes> {
  const def = definitionOf(c);
  const args = argsOf(c, def);
  const a = args[n]!;
  const words = schemaWords(declared(def, a.name()));
  const { meta } = words;
  if (!meta || isWords(meta) || !('after' in meta)) return byName(a.name(), words);
  const arg = args.findIndex((b) => b.name() === meta.after);
  const after = Object.fromEntries(Object.entries(await meta.values()).map(([k, v]) => [k, [...v]]));
  return arg >= 0 ? { kind: 'after', arg, words: after } : byName(a.name(), words);
}

/** The fields `--json` may name on this command, where it declares them. */
export async function jsonFieldsOf(c: Command): Promise<string[] | undefined> {
  const fields = await plainFields(definitionOf(c)?.jsonFields);
  return fields && [...fields];
}

// the program's `help [command...]` and `__complete` are its own, not commands to complete
const commandsOf = (c: Command) =>
  c.commands.filter((s) => !(c.parent === null && PROGRAM_OWN.has(s.name())) || definitionOf(s));

/** A command's verbs, flags and arguments (the program's: its nouns only). */
export function commandShape(c: Command, path: string[]): CommandShape {
  const def = definitionOf(c);
  return {
    path,
    subcommands: commandsOf(c).map((s) => s.name()),
    flags: path.length ? c.options.map(flagShape) : [],
    args: path.length ? argsOf(c, def).map((a) => ({ name: a.name(), variadic: a.variadic })) : [],
  };
}

/** What completion knows of one command: its shape and what each value completes to. */
export async function commandInfo(c: Command, path: string[]): Promise<CommandInfo> {
  const shape = commandShape(c, path);
  const def = definitionOf(c);
  return {
    ...shape,
    flags: path.length ? await Promise.all(c.options.map((o) => flagInfo(o, def))) : [],
    args: await Promise.all(shape.args.map(async (a, n) => ({ ...a, completes: await argCompletes(c, n) }))),
    jsonFields: await jsonFieldsOf(c),
  };
}

/** The program's own flags, which every command takes. */
export const globalFlags = (program: Command): Promise<FlagInfo[]> =>
  Promise.all(program.options.map((o) => flagInfo(o, undefined)));

/** The completion tree of a program: its own flags are every command's global flags. */
export async function collect(program: Command): Promise<CompletionTree> {
  const commands: CommandInfo[] = [];
  const walk = async (c: Command, path: string[]) => {
    commands.push(await commandInfo(c, path));
    for (const sub of commandsOf(c)) await walk(sub, [...path, sub.name()]);
  };
  await walk(program, []);
  return { globals: await globalFlags(program), commands };
}
