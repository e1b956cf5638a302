// `--json a,b` names fields; the contract (GUIDE §2) wants an unknown one refused with the others
// flags: exit 2 before any request is sent. So a command declares the fields it can print, and
// buildCommand checks the list before run(). The printer keeps its own (late) check for commands
// that cannot know their fields up front; it accepts every declared field, so the two agree.
import { answerFields } from '../api/answer-fields.js';
import type { OperationId } from '../api/operations/index.js';
import type { Context, GlobalOptions } from '../context.js';
import { checkFields } from '../output/fields.js';

/**
 * The fields a command may print under `--json`: a list, or a function of the validated input and
 * the globals (a flag such as `--pdf`, or `--api v2` / a profile's `api: v2`, changes what is
 * printed). The function returns undefined where the fields cannot be known up front.
 */
export type JsonFields<I> = FieldList | JsonFieldsFn<I>;

/** Field names in order; `headings` maps a field to its table heading(s), where it has a column. */
export type FieldList = readonly string[] & { readonly headings?: ReadonlyMap<string, readonly string[]> };

// Written as a method so that CommandDef<S> (input: its own type) still fits CommandDef<ZodType>:
// method parameters are checked bivariantly, plain function properties are not.
// Async where the fields come from an answer's schema (fieldsOfAnswer), built only when needed.
type JsonFieldsFn<I> = {
  pick(input: I, globals: GlobalOptions): FieldList | undefined | Promise<FieldList | undefined>;
}['pick'];

/** What the declaration says for this input, or undefined when there is none. */
export async function declaredFields<I>(
  decl: JsonFields<I> | undefined,
  input: I,
  globals: GlobalOptions,
): Promise<FieldList | undefined> {
  return typeof decl === 'function' ? decl(input, globals) : decl;
}

/**
 * Checks `--json a,b` against the declared fields (a UsageError listing the valid ones) and
 * hands the list to the printer (ctx.jsonFields), so a field accepted here is never refused there.
 */
export async function checkDeclaredFields<I>(decl: JsonFields<I> | undefined, input: I, ctx: Context): Promise<void> {
  const list = await declaredFields(decl, input, ctx.globals);
  if (!list) return;
  ctx.jsonFields = list;
  checkFields(ctx.globals.fields, list, list.headings);
}

type Part = readonly string[] | ReadonlyArray<{ key: string; header: string }>; // columns of any row type

/**
 * The fields of an operation's answer (src/api/answer-fields.ts) with the columns and extra names
 * of `fieldsOf`, derived the first time they are asked for (the answer's schemas load then).
 */
export function fieldsOfAnswer(id: OperationId, ...parts: Part[]): () => Promise<FieldList> {
  let made: Promise<FieldList> | undefined;
  return () => (made ??= answerFields(id).then((fields) => fieldsOf(fields, ...parts)));
}

/**
 * The union, in first-seen order, of plain names (an answer's fields: fieldsOfAnswer) and column
 * specs' keys, with each field's table heading (`testStatus` → `Status`; a nested
 * column's heading goes to its top-level field) for the usage error and `--help`.
 */
export function fieldsOf(...parts: Part[]): FieldList {
  const out = new Set<string>();
  const headings = new Map<string, string[]>();
  for (const p of parts)
    for (const x of p) {
      if (typeof x === 'string') {
        out.add(x);
        continue;
      }
      const top = x.key.split('.')[0]!;
      if (x.key === top) out.add(top);
      if (!headings.get(top)?.includes(x.header)) headings.set(top, [...(headings.get(top) ?? []), x.header]);
    }
  const names = [...out];
  return Object.assign(names, {
    headings: new Map(names.filter((n) => headings.has(n)).map((n) => [n, headings.get(n)!])),
  });
}

/** The fields of a command's plain form (no flags, v3): what its help lists and completion offers. */
export async function plainFields<I>(decl: JsonFields<I> | undefined): Promise<FieldList | undefined> {
  return typeof decl === 'function' ? decl({} as I, { api: 'v3' } as GlobalOptions) : decl;
}

/**
 * The help's list of fields with their table headings (`testStatus  (Status)`), for a command
 * whose table shows some of its fields; the fields of its plain form (no flags, v3).
 */
export function fieldsHelp(list: FieldList | undefined): string {
  if (!list?.headings?.size) return '';
  const width = Math.max(...list.map((f) => f.length));
  const lines = list.map(
    (f) => `  ${list.headings!.has(f) ? `${f.padEnd(width)}  (${list.headings!.get(f)!.join(', ')})` : f}`,
  );
  return `\nFields (--json a,b and --query take the field; the table heading in brackets):\n${lines.join('\n')}\n`;
}
