// What a zod schema says about the words a flag or argument accepts, for shell completion: the
// values of an enum (through optional, default, preprocess and transform wrappers), or the
// `{ completion }` a schema registers in zod's global registry where the accepted set is checked
// in code instead.
// Reading the schema the command validates with means completion cannot drift from it.
import * as z from 'zod/mini';

/** What a field may register as `{ completion }` in zod's global registry. */
export type CompletionMeta =
  | readonly string[]
  /** Values that depend on an earlier argument's word (`config set output <value>`). */
  | { after: string; values: Readonly<Record<string, readonly string[]>> }
  /** A comma-separated list of these words (`mcp --allow-writes invite,reattempt`). */
  | { list: readonly string[] }
  /** `key=value`, one of these keys, loaded when the completion script is made (`settings set --set`). */
  | { keys: () => Promise<readonly string[]> };

/** What a schema's definition holds, as far as these walks read it (zod's core `_zod.def`). */
export interface SchemaDef {
  type: string;
  innerType?: z.core.$ZodType;
  in?: z.core.$ZodType;
  out?: z.core.$ZodType;
  options?: z.core.$ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  shape?: Record<string, z.core.$ZodType>;
  left?: z.core.$ZodType;
  right?: z.core.$ZodType;
}

export const defOf = (s: z.core.$ZodType): SchemaDef => s._zod.def as unknown as SchemaDef;
const metaOf = (s: z.core.$ZodType) => z.globalRegistry.get(s) as Record<string, unknown> | undefined;
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional']);

/** The `{ completion }` a field registered, looking through the same wrappers. */
export function completionMeta(schema: z.core.$ZodType | undefined, depth = 0): CompletionMeta | undefined {
  if (!schema || depth > 12) return undefined;
  const meta = metaOf(schema);
  if (meta?.completion) return meta.completion as CompletionMeta;
  const def = defOf(schema);
  if (WRAPPERS.has(def.type)) return completionMeta(def.innerType, depth + 1);
  if (def.type === 'pipe') return completionMeta(def.in, depth + 1) ?? completionMeta(def.out, depth + 1);
  return undefined;
}

/**
 * The fixed set of words a schema accepts, as typed on a command line, or undefined when it is
 * not a fixed set (a string, a number, an id…). Literals and enum members become strings.
 */
export function schemaValues(schema: z.core.$ZodType | undefined, depth = 0): string[] | undefined {
  if (!schema || depth > 12) return undefined;
  const def = defOf(schema);
  if (def.type === 'enum') return [...new Set(Object.values(def.entries ?? {}).map(String))];
  if (def.type === 'literal') return (def.values ?? []).map(String);
  if (WRAPPERS.has(def.type)) return schemaValues(def.innerType, depth + 1);
  // preprocess and transform are pipes: the words typed are what the input side accepts
  if (def.type === 'pipe') return schemaValues(def.in, depth + 1) ?? schemaValues(def.out, depth + 1);
  if (def.type === 'union') {
    const parts = (def.options ?? []).map((o) => schemaValues(o, depth + 1));
    return parts.every((p) => p !== undefined) ? [...new Set(parts.flat() as string[])] : undefined;
  }
  return undefined;
}

/**
 * The fields of an object schema, looking through pipes (transform, refine), unions and
 * intersections.
 */
export function schemaShape(schema: z.core.$ZodType | undefined, depth = 0): Record<string, z.core.$ZodType> {
  if (!schema || depth > 12) return {};
  const def = defOf(schema);
  if (def.type === 'object') return def.shape ?? {};
  if (WRAPPERS.has(def.type)) return schemaShape(def.innerType, depth + 1);
  if (def.type === 'pipe') {
    const fromIn = schemaShape(def.in, depth + 1);
    return Object.keys(fromIn).length ? fromIn : schemaShape(def.out, depth + 1);
  }
  if (def.type === 'intersection') return { ...schemaShape(def.left, depth + 1), ...schemaShape(def.right, depth + 1) };
  if (def.type === 'union')
    return Object.assign({}, ...(def.options ?? []).map((o) => schemaShape(o, depth + 1)).reverse()) as Record<
      string,
      z.core.$ZodType
    >;
  return {};
}
