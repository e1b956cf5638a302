// What happens when a command runs, in order: a list of named steps over one record of the run.
// A line that is wrong whatever the profile holds is refused before the context is built, so a
// usage error reads no config; nothing is sent before every step up to `run` has passed.
import type { Command, Option } from 'commander';
import * as z from 'zod/mini';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { checkLine, usageErrorFor, validateOrAsk, type Labels } from './ask-missing.js';
import type { CommandDef, ContextFactory, Handler } from './command.js';
import { givenBothWays, type ArgDecls, type FlagDecls } from './flags.js';
import { checkDeclaredFields, type JsonFields } from './json-fields.js';

/** One run of a command, filled in step by step. */
export interface Run {
  def: CommandDef;
  /** commander's action parameters: the arguments, then the options, then the Command. */
  params: unknown[];
  command: Command;
  makeContext: ContextFactory;
  /** The values as typed: options and arguments by key (with the globals the command owns). */
  raw?: Record<string, unknown>;
  labels?: Labels;
  schemaFor?: (raw: Record<string, unknown>) => z.core.$ZodType;
  /** The profile's time zone may still fill --tz, so the line is checked once the context has it. */
  profileMayFill?: boolean;
  /** The line's input when it was complete as typed. */
  early?: { data: unknown };
  ctx?: Context;
  input?: Record<string, unknown>;
  api?: ApiSide;
}

type Step = readonly [name: string, step: (run: Run) => void | Promise<void>];

/** The steps, in order. */
export const STEPS: readonly Step[] = [
  ['parse', parse],
  ['refuse both ways', refuseBothWays],
  ['check the line', checkTheLine],
  ['make the context', async (r) => void (r.ctx = await r.makeContext(r.command))],
  ['fill from profile', fillFromProfile],
  ['ask missing', askMissing],
  ['pick API', (r) => void (r.api = pickApi(r.def, r.ctx!, r.input!, r.command))],
  ['check fields', (r) => checkDeclaredFields(r.api!.jsonFields, r.input, r.ctx!)],
  ['run', runIt],
];

export async function runSteps(run: Run): Promise<void> {
  for (const [, step] of STEPS) await step(run);
}

/** The values as typed, keyed as the declarations are; a global the command owns is moved to it. */
function parse(r: Run): void {
  const { def, command, params } = r;
  const raw: Record<string, unknown> = { ...command.opts() };
  for (const key of def.behaviour.ownsGlobals ?? [])
    for (let c = command.parent; c; c = c.parent) {
      if (c.getOptionValue(key) === undefined) continue;
      raw[key] = c.getOptionValue(key);
      c.setOptionValue(key, undefined);
    }
  Object.keys(def.args ?? {}).forEach((k, i) => {
    if (params[i] !== undefined) raw[k] = params[i];
  });
  refuseNotUtf8(raw, command);
  const pick = def.behaviour.pick;
  r.raw = raw;
  r.schemaFor = pick ? (v) => pick(v, command.optsWithGlobals()) : def.schema;
  r.labels = { label: (k) => flagLabel(k, command), show: showValue };
}

/** `--stakeholders LIST --no-stakeholders`: alternatives, not an override. */
function refuseBothWays({ command }: Run): void {
  const both = givenBothWays(command)[0];
  if (!both) return;
  const yes = command.options.find((o) => o.long === `--${both}`)?.flags.replace(/^-\w, /, '') ?? `--${both}`;
  throw new UsageError(
    `--${both} and --no-${both} cannot be used together`,
    `give one of them: ${yes}, or --no-${both}`,
  );
}

/** The line as typed against the command's schema; a time zone the profile may supply waits for the context. */
function checkTheLine(r: Run): void {
  const raw = r.raw!;
  r.profileMayFill = raw.tz === undefined && r.def.behaviour.tzFromProfile?.(raw) === true;
  if (!r.profileMayFill) r.early = checkLine(r.schemaFor!, raw, r.command, r.labels!);
  refuseTwoStdinReaders(r.def, raw, r.command);
}

function fillFromProfile(r: Run): void {
  if (r.profileMayFill && r.ctx!.globals.defaultTz !== undefined) r.raw!.tz = r.ctx!.globals.defaultTz;
}

/** The input: the line's when it was complete, else asked for on a terminal (or a usage error). */
async function askMissing(r: Run): Promise<void> {
  const data = r.early ? r.early.data : await validateOrAsk(r.schemaFor!, r.raw!, r.command, r.ctx!, r.labels!);
  r.input = data as Record<string, unknown>;
}

async function runIt({ def, api, ctx, input }: Run): Promise<void> {
  try {
    await api!.run(ctx!, input);
  } catch (err) {
    if (!def.behaviour.showsAnswer || !(err instanceof Error) || err.name !== 'UnreadableAnswerError') throw err;
    const { printUnreadable } = await import('../output/unreadable.js');
    await printUnreadable(ctx!, err as import('../api/read/read.js').UnreadableAnswerError);
  }
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
        `${flagLabel(key, owner)}: ${showValue(text).replaceAll('\ufffd', '\\ufffd')} is not UTF-8 text (bytes that ` +
          `are not UTF-8 arrive as U+FFFD)`,
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
  const other = def.behaviour.stdin ?? stdinInput(def, raw, command);
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

/** The side of a command the chosen API runs: its fields, and its run (the handler imported then). */
export interface ApiSide {
  jsonFields: JsonFields<any> | undefined;
  run(ctx: Context, input: unknown): Promise<void>;
}

/** The v3 or v2 side of a command; a refusal (exit 2) when the chosen API cannot do it. */
export function pickApi(def: CommandDef, ctx: Context, input: Record<string, unknown>, command: Command): ApiSide {
  if (ctx.globals.api !== 'v2' || !def.v2) {
    const only = def.v2 && !('unsupported' in def.v2) ? (def.v2.only ?? {}) : {};
    for (const [key, why] of Object.entries(only))
      if (input[key] !== undefined && input[key] !== false)
        throw new UsageError(`${flagLabel(key, command)}: only with --api v2 (${why})`);
    return { run: async (c, i) => (await loadHandler(def)).run(c, i), jsonFields: def.jsonFields };
  }
  if ('unsupported' in def.v2) throw v2Refusal(ctx, commandPath(command), def.v2.unsupported);
  return { run: async (c, i) => runV2Of(await loadHandler(def), def.name)(c, i), jsonFields: def.v2.jsonFields };
}

/** The command's handler module, checked to export what a handler exports. */
export async function loadHandler(def: CommandDef): Promise<Handler> {
  const mod: { run?: unknown; runV2?: unknown } = await def.handler();
  if (typeof mod.run !== 'function' || (mod.runV2 !== undefined && typeof mod.runV2 !== 'function'))
    throw new Error(`${def.name}: its handler module exports no run function`);
  return mod as Handler;
}

function runV2Of(handler: Handler, name: string): ApiSide['run'] {
  if (!handler.runV2) throw new Error(`${name}: declared for v2, but its handler has no runV2`);
  return (c, i) => handler.runV2!(c, i);
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
