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
  | { after: string; values: () => Promise<Readonly<Record<string, readonly string[]>>> }
  /** A comma-separated list of these words (`mcp --allow-writes invite,reattempt`). */
  | { list: readonly string[] }
  /** `key=value`, one of these keys, loaded when the completion script is made (`settings set --set`). */
  | { keys: () => Promise<readonly string[]> };

type Json = Record<string, unknown>;

/**
 * The schema as zod describes it in JSON Schema (the input side: what is typed), and the first
 * `{ completion }` registered on it or on a schema inside it: zod's public introspection, not its
 * definitions.
 */
function described(schema: z.core.$ZodType): { json: Json; completion?: CompletionMeta } {
  let completion: CompletionMeta | undefined;
  const json = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override: (ctx) => {
      const meta = z.globalRegistry.get(ctx.zodSchema) as { completion?: CompletionMeta } | undefined;
      completion ??= meta?.completion;
    },
  }) as Json;
  return { json, completion };
}

/** The words of a JSON Schema: its enum or const, or every part's of an anyOf (null aside). */
function words(json: Json): string[] | undefined {
  if (Array.isArray(json.enum)) return json.enum.map(String);
  if ('const' in json) return [String(json.const)];
  const parts = (json.anyOf ?? json.oneOf) as Json[] | undefined;
  if (!Array.isArray(parts)) return undefined;
  const each = parts.filter((p) => p.type !== 'null').map(words);
  return each.length && each.every((w) => w !== undefined) ? [...new Set(each.flat() as string[])] : undefined;
}

/**
 * The fixed set of words a schema accepts, as typed on a command line, or undefined when it is
 * not a fixed set (a string, a number, an id…). Literals and enum members become strings.
 */
export function schemaValues(schema: z.core.$ZodType | undefined): string[] | undefined {
  return schema && words(described(schema).json);
}

/**
 * The `{ completion }` a field registered (or a schema it wraps), and the fixed words it accepts,
 * from one description of the schema: what completion and describeFlags read.
 */
export function schemaWords(schema: z.core.$ZodType | undefined): { meta?: CompletionMeta; values?: string[] } {
  if (!schema) return {};
  const { json, completion } = described(schema);
  return { meta: completion, values: words(json) };
}

/** The words a field of an object schema accepts (through its pipes, defaults, optionals). */
export function fieldValues(schema: z.core.$ZodType, key: string): string[] | undefined {
  const props = described(schema).json.properties as Record<string, Json> | undefined;
  return props?.[key] && words(props[key]);
}
