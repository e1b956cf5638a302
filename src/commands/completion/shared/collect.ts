// What completion knows, read from the running command tree and each command's definition:
// every command path, its verbs, flags (which take a value, and what that value completes to)
// and positional arguments. Nothing here is a hand-kept list of flags or values:
// - enum values come from the zod schema the command validates with (or commander's choices);
// - a value or argument named `file` (`--csv <file>`, `[csvFile]`) completes file names, one
//   named `dir` (`--out <dir>`) directories;
// - `--json [fields]` completes the fields the command declares (`jsonFields`), when fixed;
// - a schema field may register `{ completion }` (`.register(z.globalRegistry, …)`) where its set is checked in code.
import type { Argument, Command, Option } from 'commander';
import { definitionOf, type CommandDef } from '../../../cli/command.js';
import { completionMeta, schemaShape, schemaValues } from '../../../cli/schema-values.js';

export type Completes =
  | { kind: 'none' }
  | { kind: 'file' }
  | { kind: 'dir' }
  | { kind: 'words'; words: string[] }
  /** A comma-separated list of these words (`--json a,b`). */
  | { kind: 'list'; words: string[] }
  /** Words chosen by the word of an earlier argument (`config set output <value>`). */
  | { kind: 'after'; arg: number; words: Record<string, string[]> };

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
  /** The fields `--json` may name, where the command declares a fixed list. */
  jsonFields?: string[];
}

export interface CompletionTree {
  globals: FlagInfo[];
  commands: CommandInfo[];
}

const NONE: Completes = { kind: 'none' };

function byName(name: string, def: CommandDef | undefined, key: string): Completes {
  const field = schemaShape(def?.schema())[key];
  const meta = completionMeta(field);
  if (Array.isArray(meta)) return { kind: 'words', words: [...meta] };
  const values = schemaValues(field);
  if (values?.length) return { kind: 'words', words: values };
  if (/^file$|[-_]file$|[a-z]File$/.test(name)) return { kind: 'file' }; // file, secret-file, csvFile; not profile
  if (/^dir$|[-_]dir$|[a-z]Dir$/.test(name)) return { kind: 'dir' };
  return NONE;
}

function flagInfo(o: Option, def: CommandDef | undefined): FlagInfo {
  const takes = o.required ? 'required' : o.optional ? 'optional' : 'none';
  const placeholder = /[<[]([^>\]]*)[>\]]/.exec(o.flags)?.[1] ?? '';
  let completes: Completes = NONE;
  const choices = (o as Option & { argChoices?: string[] }).argChoices;
  if (takes !== 'none') {
    if (choices?.length) completes = { kind: 'words', words: [...choices] };
    else completes = byName(placeholder, def, o.attributeName());
  }
  return { names: [o.long, o.short].filter((n): n is string => Boolean(n)), takes, completes, hidden: Boolean((o as Option & { hidden?: boolean }).hidden) };
}

function argInfos(c: Command, def: CommandDef | undefined): ArgInfo[] {
  const args = (c as Command & { registeredArguments: readonly Argument[] }).registeredArguments;
  const shape = schemaShape(def?.schema());
  return args.map((a) => {
    const meta = completionMeta(shape[a.name()]);
    let completes = byName(a.name(), def, a.name());
    if (meta && !Array.isArray(meta)) {
      const arg = args.findIndex((b) => b.name() === (meta as { after: string }).after);
      const words = Object.fromEntries(Object.entries(meta.values).map(([k, v]) => [k, [...v]]));
      if (arg >= 0) completes = { kind: 'after', arg, words };
    }
    return { name: a.name(), variadic: a.variadic, completes };
  });
}

/** The completion tree of a program: its own flags are every command's global flags. */
export async function collect(program: Command): Promise<CompletionTree> {
  const commands: CommandInfo[] = [];
  const walk = async (c: Command, path: string[]) => {
    const def = definitionOf(c);
    // a list, or one computed on use; a function of the input has no list to offer
    const fields = typeof def?.jsonFields === 'function' ? undefined : def?.jsonFields;
    commands.push({
      path,
      subcommands: c.commands.map((s) => s.name()),
      flags: path.length ? c.options.map((o) => flagInfo(o, def)) : [],
      args: path.length ? argInfos(c, def) : [],
      jsonFields: fields && [...fields],
    });
    for (const sub of c.commands) await walk(sub, [...path, sub.name()]);
  };
  await walk(program, []);
  return { globals: program.options.map((o) => flagInfo(o, undefined)), commands };
}
