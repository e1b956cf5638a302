// `--json a,b` names fields; the contract (GUIDE §2) wants an unknown one refused with the others
// flags: exit 2 before any request is sent. So a command declares the fields it can print, and
// buildCommand checks the list before run(). The printer keeps its own (late) check for commands
// that cannot know their fields up front; it accepts every declared field, so the two agree.
import * as z from 'zod';
import type { Context, GlobalOptions } from '../context.js';
import { checkFields } from '../output/fields.js';

/**
 * The fields a command may print under `--json`: a list, or a function of the validated input and
 * the globals (a flag such as `--pdf`, or `--api v2` / a profile's `api: v2`, changes what is
 * printed). The function returns undefined where the fields cannot be known up front.
 */
export type JsonFields<I> = FieldList | JsonFieldsFn<I>;

export type FieldList = readonly string[];

// Written as a method so that CommandDef<S> (input: its own type) still fits CommandDef<ZodType>:
// method parameters are checked bivariantly, plain function properties are not.
type JsonFieldsFn<I> = { pick(input: I, globals: GlobalOptions): FieldList | undefined }['pick'];

/** What the declaration says for this input, or undefined when there is none. */
export async function declaredFields<I>(decl: JsonFields<I> | undefined, input: I, globals: GlobalOptions): Promise<readonly string[] | undefined> {
  const fields = typeof decl === 'function' ? decl(input, globals) : decl;
  return fields;
}

/**
 * Checks `--json a,b` against the declared fields (a UsageError listing the valid ones) and
 * hands the list to the printer (ctx.jsonFields), so a field accepted here is never refused there.
 */
export async function checkDeclaredFields<I>(decl: JsonFields<I> | undefined, input: I, ctx: Context): Promise<void> {
  const list = await declaredFields(decl, input, ctx.globals);
  if (!list) return;
  ctx.jsonFields = list;
  checkFields(ctx.globals.fields, list);
}

type Part = z.ZodType | readonly string[] | ReadonlyArray<{ key: string }>; // columns of any row type

/**
 * The union, in first-seen order, of: a zod wire schema's top-level keys (the service's own field
 * names), plain names, and column specs' keys. Used to build declarations from what the printer
 * accepts: the schema's keys and the columns' keys.
 */
export function fieldsOf(...parts: Part[]): string[] {
  const out = new Set<string>();
  for (const p of parts) {
    if (p instanceof z.ZodType) schemaKeys(p).forEach((k) => out.add(k));
    else for (const x of p) out.add(typeof x === 'string' ? x : x.key);
  }
  return [...out];
}

/** Top-level keys of an object schema, also behind z.preprocess (a pipe into the object). */
export function schemaKeys(schema: z.ZodType): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodPipe) return schemaKeys(schema.out as z.ZodType);
  // A programming error, caught by the unit test that builds every declaration.
  throw new Error(`schemaKeys: not an object schema (${schema.def.type})`);
}
