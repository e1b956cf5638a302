// One place that turns a command definition into a commander Command: description, examples in
// --help, zod validation of flags and arguments (exit 2 naming the flag), then run(ctx, input).
import { wrappedHelp } from './help-text.js';
import { Command, Option } from 'commander';
import * as z from 'zod/mini';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { checkLine, usageErrorFor, validateOrAsk } from './ask-missing.js';
import { checkDeclaredFields, fieldsHelp, plainFields, type FieldList, type JsonFields } from './json-fields.js';
import { addDeclared, givenBothWays, schemaOf, type ArgDecls, type FlagDecls, type InputOf } from './flags.js';

export { arg, describeFlags, flag, type DescribedFlag } from './flags.js';
export { zx } from './zx.js';

export interface CommandDef<I = any> {
  name: string;
  /** The positional arguments, in order: `{ testId: arg(() => zx.id('1001')) }` (see ./flags.ts). */
  args?: ArgDecls;
  description: string;
  /** Shown under "Examples:" in --help; at least one. */
  examples: string[];
  /**
   * The flags, in help order, each declared once: `{ page: flag('page number', { value: 'n' }, () => zx.int(…)) }`.
   * commander's options, the zod validation, prompts, completion, docs and describeFlags all come from here.
   */
  flags?: FlagDecls;
  /** Checks across flags (`--journal` only with `--apply`), run on the whole input after each flag's own schema. */
  check?: (input: NoInfer<I>, c: z.core.$RefinementCtx) => void;
  /**
   * Which schema validates the values as typed, decided in plain code before validating (`invite`:
   * one candidate, or a CSV of them); `globals` are the program's options on the line (absent
   * outside the command line: MCP). It may throw a UsageError for a line no mode accepts.
   * Absent: the declared flags and arguments with `check`.
   */
  pick?: (raw: Record<string, unknown>, globals?: Record<string, unknown>) => z.core.$ZodType<I>;
  /** commander's usage line, where the declared arguments do not say it (`[options] <testId>`). */
  usage?: string;
  /** A paragraph of help shown before the examples. */
  helpAfter?: string;
  /**
   * The command reads standard input whatever is typed (`mcp`: its protocol), said as it fits
   * "--key-stdin and … both read standard input". Flags and arguments that read it for `-` say so
   * in their declaration (`stdin: ['-']`).
   */
  stdin?: string;
  /**
   * The zod object of every declared argument and flag, with `check`: derived by defineCommand
   * and built when the command runs (or completion asks), not when the program is.
   */
  schema: () => z.ZodMiniType;
  /**
   * The fields `--json a,b` may name (the service's field names), checked before run() so an
   * unknown one is a usage error with no request sent. Leave it out only where the fields cannot
   * be known up front (free-form JSON); the printer then checks once it has the data.
   */
  jsonFields?: JsonFields<I>;
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
  /** What the command does against the v3 API (the default), or against neither. */
  run(ctx: Context, input: I): Promise<void>;
  /**
   * The command under `--api v2` (or a profile's `api: v2`), declared once here so no command
   * checks the API version itself: its own run (and fields), or why v2 cannot do it — then
   * buildCommand refuses with exit 2 before anything is sent. Absent: the command does not
   * depend on the API version (auth, config, sandbox, api, completion).
   */
  v2?: V2Def<I>;
}

export type V2Def<I> = V2Run<I> | { unsupported: string };

export interface V2Run<I> {
  run(ctx: Context, input: I): Promise<void>;
  jsonFields?: JsonFields<I>;
  /** Options that exist only in v2, with why v3 has none (refused under v3, exit 2). */
  only?: Record<string, string>;
}

/** What a noun's index.ts declares: its verbs each imported on demand, in help order. */
export interface NounDecl {
  name: string;
  description: string;
  verbs: Readonly<Record<string, () => Promise<{ default: CommandDef }>>>;
  /** A noun that is itself a command (`invite <testId>`, `report <id>`). */
  self?: CommandDef;
}

/** A noun with its verbs loaded: all of them, or only the one a command line names (`omitted` the rest, in order). */
export interface NounDef extends Omit<NounDecl, 'verbs'> {
  verbs: CommandDef[];
  /** The verbs not loaded: src/cli/program.ts makes them placeholders that ask for the whole tree. */
  omitted: string[];
}

/** What a command file declares; `schema` is derived from `args`, `flags` and `check`. */
export type CommandDecl<A extends ArgDecls, F extends FlagDecls, I> = Omit<
  CommandDef<I>,
  'schema' | 'args' | 'flags'
> & { args?: A; flags?: F };

export function defineCommand<A extends ArgDecls = {}, F extends FlagDecls = {}, I = InputOf<A & F>>(
  def: CommandDecl<A, F, I>,
): CommandDef<I> {
  let built: z.ZodMiniType | undefined;
  const schema = () =>
    (built ??= schemaOf(
      { ...def.args, ...def.flags } as ArgDecls & FlagDecls,
      def.check as ((v: unknown, c: z.core.$RefinementCtx) => void) | undefined,
    ));
  return { ...def, schema };
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

/** Builds the commander Command for a definition. */
export function buildCommand(def: CommandDef, makeContext: ContextFactory, cmd = new Command(def.name)): Command {
  DEFINITIONS.set(cmd, def);
  cmd.description(def.description);
  addDeclared(cmd, def.args, def.flags);
  if (def.usage) cmd.usage(def.usage);
  if (def.helpAfter) cmd.addHelpText('after', wrappedHelp(def.helpAfter));
  const examples = `\nExamples:\n${def.examples.map((e) => `  $ ${e}`).join('\n')}\n`;
  cmd.addHelpText('after', (c) => wrappedHelp(examples + fieldsHelp(HELP_FIELDS.get(def)))(c));
  cmd.action(async (...params: unknown[]) => {
    const command = params[params.length - 1] as Command;
    const argNames = Object.keys(def.args ?? {});
    const raw: Record<string, unknown> = { ...command.opts() };
    for (const key of def.ownsGlobals ?? [])
      for (let c = command.parent; c; c = c.parent) {
        if (c.getOptionValue(key) === undefined) continue;
        raw[key] = c.getOptionValue(key);
        c.setOptionValue(key, undefined);
      }
    argNames.forEach((k, i) => {
      if (params[i] !== undefined) raw[k] = params[i];
    });
    refuseNotUtf8(raw, command);
    const both = givenBothWays(command)[0];
    if (both) {
      const yes = command.options.find((o) => o.long === `--${both}`)?.flags.replace(/^-\w, /, '') ?? `--${both}`;
      throw new UsageError(
        `--${both} and --no-${both} cannot be used together`,
        `give one of them: ${yes}, or --no-${both}`,
      );
    }
    const schemaFor = def.pick ? (r: Record<string, unknown>) => def.pick!(r, command.optsWithGlobals()) : def.schema;
    const labels = { label: (k: string) => flagLabel(k, command), show: showValue };
    // A line that is wrong whatever the profile holds is refused before the context is built, so
    // a usage error reads no config. A time zone the profile may supply waits for the context.
    const profileMayFill = raw.tz === undefined && def.tzFromProfile?.(raw) === true;
    const early = profileMayFill ? undefined : checkLine(schemaFor, raw, command, labels);
    refuseTwoStdinReaders(def, raw, command);
    // The context only resolves the globals (it sends nothing: clients connect lazily); asking
    // for missing values needs them (a terminal?), and so does the field check, since --api v2
    // or a profile's `api: v2` changes the field names.
    const ctx = await makeContext(command);
    if (profileMayFill && ctx.globals.defaultTz !== undefined) raw.tz = ctx.globals.defaultTz;
    const input = early ? early.data : await validateOrAsk(schemaFor, raw, command, ctx, labels);
    const run = pickApi(def, ctx, input as Record<string, unknown>, command);
    await checkDeclaredFields(run.jsonFields, input, ctx);
    try {
      await run.run(ctx, input);
    } catch (err) {
      if (!def.showsAnswer || !(err instanceof Error) || err.name !== 'UnreadableAnswerError') throw err;
      const { printUnreadable } = await import('../output/unreadable.js');
      await printUnreadable(ctx, err as import('../api/read/read.js').UnreadableAnswerError);
    }
  });
  return cmd;
}

/**
 * Node decodes argv as UTF-8 before any code of ours runs, each byte sequence that is not UTF-8
 * turned into U+FFFD; the bytes themselves are gone (only Linux keeps them, in /proc). So U+FFFD
 * in a value is the sign, on every platform: it never belongs in a name, an address or an id,
 * and where it was typed as such it marks text that was already damaged (docs/assumptions.md).
 */
function refuseNotUtf8(raw: Record<string, unknown>, command: Command): void {
  const values: Array<[string, unknown, Command]> = Object.entries(raw).map(([k, v]) => [k, v, command]);
  for (let c = command.parent; c; c = c.parent) for (const [k, v] of Object.entries(c.opts())) values.push([k, v, c]);
  for (const [key, value, owner] of values) {
    const text = [value].flat().find((v) => typeof v === 'string' && v.includes('\ufffd'));
    if (typeof text === 'string')
      throw new UsageError(
        `${flagLabel(key, owner)}: ${showValue(text).replaceAll('\ufffd', '\\ufffd')} is not UTF-8 text (bytes that are not UTF-8 arrive as U+FFFD)`,
        'give it in UTF-8: set the terminal or script to UTF-8, or convert it (iconv -f LATIN1 -t UTF-8)',
      );
  }
}

/**
 * `--key-stdin` with another input read from standard input (`--from-csv -`, `--data -`): the
 * first reader would swallow the other's text (a key read as a CSV header, and shown in its error).
 */
function refuseTwoStdinReaders(def: CommandDef, raw: Record<string, unknown>, command: Command): void {
  if (!command.optsWithGlobals().keyStdin) return;
  const other = def.stdin ?? stdinInput(def, raw, command);
  if (other)
    throw new UsageError(
      `--key-stdin and ${other} both read standard input`,
      'give the key with --api-key-file F or ASSESS_API_KEY',
    );
}

/** The flag or argument of this line that reads standard input (`--from-csv -`), if any. */
function stdinInput(def: CommandDef, raw: Record<string, unknown>, command: Command): string | undefined {
  for (const [key, d] of Object.entries<FlagDecls[string] | ArgDecls[string]>({ ...def.args, ...def.flags })) {
    if (!d.stdin) continue;
    // an argument left out may default to standard input (`callbacks verify` without a file)
    const value = raw[key] ?? (d.kind === 'arg' ? z.safeParse(d.schema(), undefined).data : undefined);
    if (typeof value === 'string' && d.stdin.includes(value))
      return raw[key] === undefined
        ? `${flagLabel(key, command)} left out (then ${value})`
        : `${flagLabel(key, command)} ${value}`;
  }
  return undefined;
}

/** The v3 or v2 side of a command; a refusal (exit 2) when the chosen API cannot do it. */
export function pickApi(
  def: CommandDef,
  ctx: Context,
  input: Record<string, unknown>,
  command: Command,
): Pick<V2Run<unknown>, 'run' | 'jsonFields'> {
  const path = commandPath(command);
  if (ctx.globals.api !== 'v2' || !def.v2) {
    const only = def.v2 && 'run' in def.v2 ? (def.v2.only ?? {}) : {};
    for (const [key, why] of Object.entries(only))
      if (input[key] !== undefined && input[key] !== false)
        throw new UsageError(`${flagLabel(key, command)}: only with --api v2 (${why})`);
    return { run: (c, i) => def.run(c, i), jsonFields: def.jsonFields };
  }
  if ('unsupported' in def.v2) throw v2Refusal(ctx, path, def.v2.unsupported);
  return def.v2;
}

/** `attempts cancel` for the cancel command (the root program's name left out). */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The usage error for a command the v2 API cannot do: says which setting chose v2. */
export function v2Refusal(ctx: Context, command: string, why: string): UsageError {
  const from = ctx.globals.apiExplicit ? '--api v2' : `profile '${ctx.globals.profile}' (api: v2)`;
  return new UsageError(
    `${command}: not available in the v2 API (${why}); it needs v3, but ${from} selects v2`,
    ctx.globals.apiExplicit
      ? `run it without --api v2 (v3 is the default)`
      : `add --api v3 to this command, or: assess config set api v3`,
  );
}

/** Parses input with the schema; the first problem becomes a UsageError naming the flag. */
export function validate<S extends z.core.$ZodType>(
  schema: S,
  raw: Record<string, unknown>,
  command?: Command,
): z.output<S> {
  const result = z.safeParse(schema, raw);
  if (result.success) return result.data;
  throw usageErrorFor(result.error.issues, raw, { label: (k) => flagLabel(k, command), show: showValue });
}

/** A bad value as JSON (control characters escaped), cut short: a 100 KB value is not echoed whole. */
export function showValue(value: unknown, max = 80): string {
  const json = JSON.stringify(value) ?? String(value);
  if (json.length <= max) return json;
  const length = typeof value === 'string' ? ` (${value.length} characters)` : '';
  return `${json.slice(0, max)}…${length}`;
}

/** '--page-size' for an option key 'pageSize', '<testId>' for an argument. */
export function flagLabel(key: string, command?: Command): string {
  const opt = command?.options.find((o: Option) => o.attributeName() === key);
  if (opt) return opt.long ?? opt.flags;
  const arg = command?.registeredArguments.find((a) => a.name() === key);
  if (arg) return `<${arg.name()}>`;
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}
