// A command is a declaration (src/commands/<noun>/<verb>.ts): name, description, arguments and
// flags, examples, fields, what it does under v2, its edge cases — and its handler, a module of
// its own (<verb>.run.ts) imported when the command runs. This file turns a declaration into a
// commander Command; what happens when it runs is the list of steps in ./pipeline.ts. A noun's
// declarations are imported when a line reaches the noun (src/cli/tree.ts).
import { Command } from 'commander';
import * as z from 'zod/mini';
import type { Context } from '../context.js';
import { leadWith, wrappedHelp } from './help-text.js';
import { fieldsHelp, plainFields, type FieldList, type JsonFields } from './json-fields.js';
import { addDeclared, schemaOf, type ArgDecls, type FlagDecls, type InputOf } from './flags.js';
import { runSteps } from './pipeline.js';

export { arg, describeFlags, flag, type DescribedFlag } from './flags.js';
export { zx } from './zx.js';
export { commandPath, flagLabel, loadHandler, pickApi, showValue, v2Refusal, validate } from './pipeline.js';

/** The edge cases of a command, apart from what most commands declare. */
export interface Behaviour<I = any> {
  /** commander's usage line, where the declared arguments do not say it (`[options] <testId>`). */
  usage?: string;
  /**
   * The command reads standard input whatever is typed (`mcp`: its protocol), said as it fits
   * "--key-stdin and … both read standard input". Flags and arguments that read it for `-` say so
   * in their declaration (`stdin: ['-']`).
   */
  stdin?: string;
  /**
   * Global options this command gives its own meaning (`attempts wait --timeout 4h`: how long to
   * wait, not the per-request timeout). Commander hands them to the program, so they are moved.
   */
  ownsGlobals?: string[];
  /**
   * When the profile's `tz` setting (`assess config set tz Asia/Kolkata`) fills a --tz left out:
   * given the flags as typed, true where the command needs a time zone (reattempt always; a
   * schedule on links create or invite). Absent: the setting is not used.
   */
  tzFromProfile?: (raw: Record<string, unknown>) => boolean;
  /**
   * The command only reads and prints the service's answer: when that answer cannot be understood
   * at all it is printed as received with a warning (exit 0) instead of failing.
   */
  showsAnswer?: boolean;
  /**
   * Which schema validates the values as typed, decided in plain code before validating (`invite`:
   * one candidate, or a CSV of them); `globals` are the program's options on the line (absent
   * outside the command line: MCP). It may throw a UsageError for a line no mode accepts.
   * Absent: the declared flags and arguments with `check`.
   */
  pick?: (raw: Record<string, unknown>, globals?: Record<string, unknown>) => z.core.$ZodType<I>;
}

/** A command as the program, completion, docs and `assess mcp` read it (what defineCommand returns). */
export interface CommandDef<I = any> {
  name: string;
  description: string;
  /** The positional arguments, in order: `{ testId: arg(() => zx.id('1001')) }` (see ./flags.ts). */
  args?: ArgDecls;
  /**
   * The flags, in help order, each declared once: `{ page: flag('page number', { value: 'n' }, () => zx.int(…)) }`.
   * commander's options, the zod validation, prompts, completion, docs and describeFlags all come from here.
   */
  flags?: FlagDecls;
  /** The first leads its --help, right after the description; the others come after the details. At least one. */
  examples: string[];
  /** Details shown after the options (how resuming works, what a mode means). */
  helpAfter?: string;
  /** Checks across flags (`--journal` only with `--apply`), run on the whole input after each flag's own schema. */
  check?: (input: NoInfer<I>, c: z.core.$RefinementCtx) => void;
  /**
   * The fields `--json a,b` may name (the service's field names), checked before run() so an
   * unknown one is a usage error with no request sent. Leave it out only where the fields cannot
   * be known up front (free-form JSON); the printer then checks once it has the data.
   */
  jsonFields?: JsonFields<I>;
  /**
   * The command under `--api v2` (or a profile's `api: v2`), declared once here so no command
   * checks the API version itself: its own run (and fields), or why v2 cannot do it — then the
   * command is refused with exit 2 before anything is sent. Absent: the command
   * does not depend on the API version (auth, config, sandbox, api, completion).
   */
  v2?: V2Def<I>;
  /** The edge cases, gathered from the declaration. */
  behaviour: Behaviour<I>;
  /** The zod object of every declared argument and flag, with `check`: built when first asked for. */
  schema: () => z.ZodMiniType;
  /**
   * The module that runs it, imported when it runs: `() => import('./list.run.js')`, which exports
   * `run` (and `runV2` where `v2` says the command works under v2), each typed `Run<typeof list>`.
   * Typed loosely here because the module's types come from this declaration's; loadHandler checks it.
   */
  handler: () => Promise<object>;
}

/** What a command does, given its input: `export const run: Run<typeof list> = async (ctx, input) => …`. */
export type Run<D> = (ctx: Context, input: InputOfCommand<D>) => Promise<void>;

/** The input a declaration's handler gets: `InputOfCommand<typeof list>`. */
export type InputOfCommand<D> = D extends CommandDef<infer I> ? I : never;

/** A handler module as loaded: its run, and its runV2 if it has one. */
export interface Handler {
  run: Run<CommandDef>;
  runV2?: Run<CommandDef>;
}

export type V2Def<I> = V2Run<I> | { unsupported: string };

/** The command works under v2: its handler's runV2 does it. */
export interface V2Run<I> {
  jsonFields?: JsonFields<I>;
  /** Options that exist only in v2, with why v3 has none (refused under v3, exit 2). */
  only?: Record<string, string>;
}

/**
 * What a command file declares; `schema` is derived from `args`, `flags` and `check`, and the
 * behaviour knobs beside the other fields are gathered under `behaviour` (one spread from another
 * definition, as `invite` spreads its single form, brings that one's `behaviour` along).
 */
export type CommandDecl<A extends ArgDecls, F extends FlagDecls, I> = Omit<
  CommandDef<I>,
  'schema' | 'args' | 'flags' | 'behaviour'
> &
  Behaviour<I> & {
    args?: A;
    flags?: F;
    behaviour?: Behaviour<any>;
  };

const BEHAVIOUR_KEYS = ['usage', 'stdin', 'ownsGlobals', 'tzFromProfile', 'showsAnswer', 'pick'] as const;

export function defineCommand<A extends ArgDecls = {}, F extends FlagDecls = {}, I = InputOf<A & F>>(
  decl: CommandDecl<A, F, I>,
): CommandDef<I> {
  const { name, description, args, flags, examples, helpAfter, check, jsonFields } = decl;
  let built: z.ZodMiniType | undefined;
  const schema = () =>
    (built ??= schemaOf(
      { ...args, ...flags } as ArgDecls & FlagDecls,
      check as ((v: unknown, c: z.core.$RefinementCtx) => void) | undefined,
    ));
  const behaviour: Behaviour<I> = { ...decl.behaviour };
  for (const key of BEHAVIOUR_KEYS) if (decl[key] !== undefined) Object.assign(behaviour, { [key]: decl[key] });
  return {
    name,
    description,
    args,
    flags,
    examples,
    helpAfter,
    check,
    jsonFields,
    behaviour,
    schema,
    handler: decl.handler,
    v2: decl.v2,
  };
}

type Load = () => Promise<{ default: CommandDef }>;

/** What a noun's index.ts declares: its verbs each imported on demand, in help order. */
export interface NounDecl {
  name: string;
  description: string;
  verbs: Readonly<Record<string, Load>>;
  /**
   * A noun that is itself a command (`invite <testId>`, `report <id>`): its declaration, or its
   * import where the declaration is heavy to load (what its run imports comes with it).
   */
  self?: CommandDef | Load;
}

/** A noun with its own command and its verbs loaded, in order. */
export interface NounDef extends Omit<NounDecl, 'verbs' | 'self'> {
  self?: CommandDef;
  verbs: CommandDef[];
}

/** The noun's own command, imported if need be. */
export async function selfOf(noun: NounDecl): Promise<CommandDef | undefined> {
  return typeof noun.self === 'function' ? (await noun.self()).default : noun.self;
}

export function defineNoun(def: NounDecl): NounDecl {
  return def;
}

export type ContextFactory = (cmd: Command) => Promise<Context>;

// Which definition each built Command came from: completion reads a flag's accepted values from
// its zod schema, so they cannot drift from what the command validates.
const DEFINITIONS = new WeakMap<Command, CommandDef>();

/** The definition a Command was built from (undefined for groups and the program). */
export function definitionOf(cmd: Command): CommandDef | undefined {
  return DEFINITIONS.get(cmd);
}

// The fields each definition's help lists, once loaded (loadHelpFields): some are derived from an
// answer's schemas, which a run that shows no help does not build.
const HELP_FIELDS = new WeakMap<CommandDef, FieldList | undefined>();

/** Loads the fields the help of every command under `root` lists. */
export async function loadHelpFields(root: Command): Promise<void> {
  const def = definitionOf(root);
  if (def && !HELP_FIELDS.has(def)) HELP_FIELDS.set(def, await plainFields(def.jsonFields));
  for (const c of root.commands) await loadHelpFields(c);
}

/** Builds the commander Command for a definition: its options and help; running it runs ./pipeline.ts's steps. */
export function buildCommand(def: CommandDef, makeContext: ContextFactory, cmd = new Command(def.name)): Command {
  DEFINITIONS.set(cmd, def);
  cmd.description(def.description);
  addDeclared(cmd, def.args, def.flags);
  if (def.behaviour.usage) cmd.usage(def.behaviour.usage);
  leadWith(cmd, def.examples.slice(0, 1));
  if (def.helpAfter) cmd.addHelpText('after', wrappedHelp(`\n${def.helpAfter.replace(/^\n+/, '')}`));
  const more = def.examples.slice(1);
  const after = more.length ? `\nMore examples:\n${more.map((e) => `  $ ${e}`).join('\n')}\n` : '';
  cmd.addHelpText('after', (c) => wrappedHelp(`${after}${fieldsHelp(HELP_FIELDS.get(def))}`)(c));
  cmd.action((...params: unknown[]) => runSteps({ def, params, command: params.at(-1) as Command, makeContext }));
  return cmd;
}
