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

export interface FlagInfo {
  /** Long and short spellings: `--output`, `-o`. */
  names: string[];
  takes: 'none' | 'required' | 'optional';
  completes: Completes;
  /** Hidden from help and never offered; still known, so its value is skipped. */
  hidden: boolean;
}

export interface ArgInfo {
  name: string;
  variadic: boolean;
  completes: Completes;
}

export interface CommandInfo {
  /** `['links', 'create']`; `[]` is the program itself. */
  path: string[];
  subcommands: string[];
  /** The command's own flags (the program's are in `CompletionTree.globals`). */
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

async function flagInfo(o: Option, def: CommandDef | undefined): Promise<FlagInfo> {
  const takes = o.required ? 'required' : o.optional ? 'optional' : 'none';
  const placeholder = /[<[]([^>\]]*)[>\]]/.exec(o.flags)?.[1] ?? '';
  let completes: Completes = NONE;
  const choices = (o as Option & { argChoices?: string[] }).argChoices;
  if (takes !== 'none') {
    if (choices?.length) completes = { kind: 'words', words: [...choices] };
    else if (!def && o.long && GLOBAL_VALUES[o.long]) completes = GLOBAL_VALUES[o.long]!;
    else completes = await byName(placeholder, schemaWords(declared(def, o.attributeName())));
  }
  return {
    names: [o.long, o.short].filter((n): n is string => Boolean(n)),
    takes,
    completes,
    hidden: Boolean((o as Option & { hidden?: boolean }).hidden),
  };
}

async function argInfos(c: Command, def: CommandDef | undefined): Promise<ArgInfo[]> {
  const args = (c as Command & { registeredArguments: readonly Argument[] }).registeredArguments;
  const infos: ArgInfo[] = [];
  for (const a of args) {
    if (def?.args?.[a.name()]?.hidden) continue;
    const words = schemaWords(declared(def, a.name()));
    const { meta } = words;
    let completes = await byName(a.name(), words);
    if (meta && !isWords(meta) && 'after' in meta) {
      const arg = args.findIndex((b) => b.name() === meta.after);
      const words = Object.fromEntries(Object.entries(await meta.values()).map(([k, v]) => [k, [...v]]));
      if (arg >= 0) completes = { kind: 'after', arg, words };
    }
    infos.push({ name: a.name(), variadic: a.variadic, completes });
  }
  return infos;
}

// the program's `help [command...]` and `__complete` are its own, not commands to complete
const commandsOf = (c: Command) =>
  c.commands.filter((s) => !(c.parent === null && PROGRAM_OWN.has(s.name())) || definitionOf(s));

/** What completion knows of one command: its verbs, flags and arguments (the program's: its nouns only). */
export async function commandInfo(c: Command, path: string[]): Promise<CommandInfo> {
  const def = definitionOf(c);
  const fields = await plainFields(def?.jsonFields);
  return {
    path,
    subcommands: commandsOf(c).map((s) => s.name()),
    flags: path.length ? await Promise.all(c.options.map((o) => flagInfo(o, def))) : [],
    args: path.length ? await argInfos(c, def) : [],
    jsonFields: fields && [...fields],
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
