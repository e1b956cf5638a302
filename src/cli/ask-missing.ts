// Validation that does not send people back and forth: every bad or missing flag is named in one
// message, and on a terminal (stdin and stderr TTYs, no --no-input) the values that are only
// missing are asked for, each checked by the command's own schema as it is typed (as gh does).
import type { Command } from 'commander';
import * as z from 'zod/mini';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { fieldValues } from './schema-values.js';

type Issue = z.core.$ZodIssue;

export interface Labels {
  label(key: string): string;
  show(value: unknown): string;
}

/** The first problem of each flag or argument, in order. */
function perKey(issues: readonly Issue[]): Array<{ key: string; issue: Issue }> {
  const seen = new Map<string, Issue>();
  for (const issue of issues) {
    const key = issue.path.length ? String(issue.path[0]) : '';
    if (!seen.has(key)) seen.set(key, issue);
  }
  return [...seen].map(([key, issue]) => ({ key, issue }));
}

/** One usage error naming every problem: `--start: is required, …; --tz: is required, …`. */
export function usageErrorFor(issues: readonly Issue[], raw: Record<string, unknown>, l: Labels): UsageError {
  const parts = perKey(issues).map(({ key, issue }) => {
    const label = key ? l.label(key) : 'input';
    const value = key ? raw[key] : undefined;
    return `${label}: ${issue.message}${value === undefined ? '' : ` (got ${l.show(value)})`}`;
  });
  return new UsageError(parts.join('; '));
}

type SchemaFor = (raw: Record<string, unknown>) => z.core.$ZodType;

/** Whether every problem is a flag or argument of the command that was not given (one a prompt could ask for). */
function onlyMissing(issues: readonly Issue[], raw: Record<string, unknown>, command: Command): boolean {
  const known = (key: string) =>
    command.options.some((o) => o.attributeName() === key) || command.registeredArguments.some((a) => a.name() === key);
  return perKey(issues).every(({ key }) => key && raw[key] === undefined && known(key));
}

/**
 * The line checked before anything else is read: its input when valid, undefined when values are
 * only missing (a prompt or the profile may still supply them), a usage error otherwise.
 */
export function checkLine(
  schemaFor: SchemaFor,
  raw: Record<string, unknown>,
  command: Command,
  l: Labels,
): { data: unknown } | undefined {
  const result = z.safeParse(schemaFor(raw), raw);
  if (result.success) return { data: result.data };
  if (onlyMissing(result.error.issues, raw, command)) return undefined;
  throw usageErrorFor(result.error.issues, raw, l);
}

/** `schemaFor` gives the schema for the values so far (a command may pick one by what was typed). */
export async function validateOrAsk(
  schemaFor: SchemaFor,
  raw: Record<string, unknown>,
  command: Command,
  ctx: Context,
  l: Labels,
): Promise<unknown> {
  for (;;) {
    const schema = schemaFor(raw);
    const result = z.safeParse(schema, raw);
    if (result.success) return result.data;
    if (!ctx.globals.interactive || !onlyMissing(result.error.issues, raw, command))
      throw usageErrorFor(result.error.issues, raw, l);
    const problems = perKey(result.error.issues);
    const { key, issue } = problems[0]!;
    raw[key] = await ask(ctx, schema, raw, key, question(command, key, l.label(key), issue.message), command);
  }
}

/**
 * A missing value asked as a question: what it is (the flag's own help, up to its first
 * explanation), the flag, and the example the error would give: `Time zone of the access window
 * (--tz)? e.g. Asia/Kolkata`, not the error text `--tz (is required with a schedule, e.g. --tz Asia/Kolkata …)`.
 */
export function question(command: Command, key: string, label: string, message: string): string {
  const help =
    command.options.find((o) => o.attributeName() === key)?.description ??
    command.registeredArguments.find((a) => a.name() === key)?.description;
  const what = help?.split(/[:;(]|, e\.g\.|, /)[0]?.trim();
  const example = new RegExp(`e\\.g\\. (?:${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} )?("[^"]+"|\\S+)`)
    .exec(message)?.[1]
    ?.replace(/^"|"$/g, '');
  const head = what ? `${what[0]!.toUpperCase()}${what.slice(1)} (${label})?` : `${label}?`;
  return example ? `${head} e.g. ${example}` : head;
}

async function ask(
  ctx: Context,
  schema: z.core.$ZodType,
  raw: Record<string, unknown>,
  key: string,
  message: string,
  command: Command,
): Promise<string> {
  const io = { input: ctx.io.stdin, output: ctx.io.stderr, signal: ctx.signal };
  const choices = command.options.find((o) => o.attributeName() === key)?.argChoices ?? fieldValues(schema, key);
  if (choices?.length) {
    const { select } = await import('@inquirer/prompts');
    return select({ message, choices: choices.map((c) => ({ value: c, name: c })) }, io);
  }
  const { input } = await import('@inquirer/prompts');
  return input(
    {
      message,
      // the command's own schema decides, as it would for the flag
      validate: (v) => {
        const r = z.safeParse(schema, { ...raw, [key]: v });
        const bad = r.success ? undefined : r.error.issues.find((i) => String(i.path[0] ?? '') === key);
        return bad ? bad.message : true;
      },
    },
    io,
  );
}
