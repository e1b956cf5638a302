// One wire definition: the strict schemas (src/api/schemas: what the sandbox answers and the
// OpenAPI document describes) and the tolerant readers (src/api/read: what the client reads, the
// printer prints and `--json a,b` may name) that the operation table pairs name the same fields,
// at every level and in the same order, for every answer of v3 and v2. A field added to one and
// not the other fails here.
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { OPERATIONS } from '../../src/api/operations/index.js';
import { allReaders } from '../../src/api/read/catalog.js';
import { READ_FIELDS } from '../../src/api/read/policy.js';
import * as R2 from '../../src/api/read/v2.js';
import * as R3 from '../../src/api/read/v3.js';
import { CallbackWire } from '../../src/api/read/callback.js';
import * as S2 from '../../src/api/schemas/v2.js';
import * as S3 from '../../src/api/schemas/v3.js';
import { CallbackV2, CallbackV3 } from '../../src/api/schemas/callback.js';
import { WIRE } from '../../src/api/schemas/catalog.js';
import { CALLBACK_V3_FIELDS } from '../../src/api/wire-constants.js';

const READERS = await allReaders();

/** The field names of an object schema, level by level: null for a value that is not an object. */
type Tree = { [field: string]: Tree } | null;

type Schema = z.core.$ZodType;
type Def = {
  type: string;
  innerType?: Schema;
  in?: Schema;
  out?: Schema;
  element?: Schema;
  shape?: Record<string, Schema>;
};

/** Walks through optional, nullable, default, preprocess and arrays to the objects inside. */
function tree(schema: Schema): Tree {
  const def = schema._zod.def as Def;
  switch (def.type) {
    case 'object':
      return Object.fromEntries(Object.entries(def.shape!).map(([k, v]) => [k, tree(v)]));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return tree(def.innerType!);
    case 'pipe': {
      // z.pipe(z.transform(fn), S) (a preprocess) is a pipe into S; z.pipe(S, z.transform(fn)) a pipe out of S
      const out = def.out!._zod.def;
      return tree(out.type === 'transform' ? def.in! : def.out!);
    }
    case 'array':
      return tree(def.element!);
    default:
      return null;
  }
}

/** Every difference between two trees, as `path: only in <side>` lines. */
function differences(reader: Tree, strict: Tree, path: string, ignore: readonly string[] = []): string[] {
  if (reader === null || strict === null)
    return (reader === null) === (strict === null) ? [] : [`${path}: an object on one side only`];
  const out: string[] = [];
  for (const k of Object.keys(reader))
    if (!(k in strict) && !ignore.includes(`${path}.${k}`)) out.push(`${path}.${k}: only in the reader`);
  for (const k of Object.keys(strict))
    if (!(k in reader) && !ignore.includes(`${path}.${k}`)) out.push(`${path}.${k}: only in the strict schema`);
  for (const k of Object.keys(reader))
    if (k in strict) out.push(...differences(reader[k]!, strict[k]!, `${path}.${k}`, ignore));
  return out;
}

const topKeys = (schema: Schema) => Object.keys(tree(schema) ?? {});

type Answer = {
  wire: string;
  read?: string;
  rows?: { key?: string; read: string };
};

/** The strict side of a reading: a `{result, …}` envelope (v2; attempts, callbacks) is read inside. */
function strictOf(reader: Tree, strict: Tree): Tree {
  if (strict && 'result' in strict && reader && !('result' in reader)) return strict.result!;
  return strict;
}

/**
 * Every reading the operation table pairs with a strict schema: each answer, and each row of a
 * listing. Settings: the full-replace body is the strict schema that names the settings (the
 * read-back one is deliberately open).
 */
const PAIRS: Record<string, [reader: Tree, strict: Tree]> = Object.fromEntries(
  Object.entries(OPERATIONS).flatMap(([id, row]) => {
    const a = row.answer as Answer;
    if (!a.read) return [];
    const reader = tree(READERS[a.read as keyof typeof READERS]);
    const wire = a.wire === 'TestSettingsResponse' ? S3.TestSettings : WIRE[a.wire as keyof typeof WIRE];
    const strict = strictOf(reader, tree(wire));
    const out: Array<[string, [Tree, Tree]]> = [[`${id} (${a.read})`, [reader, strict]]];
    if (a.rows) {
      const rowReader = tree(READERS[a.rows.read as keyof typeof READERS]);
      out.push([`${id} rows (${a.rows.read})`, [rowReader, a.rows.key ? strict![a.rows.key]! : strict]]);
    }
    return out;
  }),
);

const isSchema = (v: unknown): v is Schema => v instanceof z.core.$ZodType;

describe('the tolerant reader and the strict schemas', () => {
  it('every schema the reader exports (v3 and v2) is read by an operation of the table', () => {
    const exported = [...Object.entries(R3), ...Object.entries(R2)].filter(([, v]) => isSchema(v)).map(([k]) => k);
    const used = new Set(
      Object.values(OPERATIONS).flatMap((o) => {
        const a = o.answer as Answer;
        return [a.read, a.rows?.read];
      }),
    );
    expect(exported.filter((k) => !used.has(k) && k !== 'V2Envelope')).toEqual([]);
  });

  it.each(Object.entries(PAIRS))('%s: the same fields at every level', (name, [reader, strict]) => {
    expect(strict).not.toBeNull();
    expect(differences(reader, strict, name)).toEqual([]);
  });

  it.each(Object.entries(PAIRS))(
    '%s: the reader declares its fields in the strict order',
    (_name, [reader, strict]) => {
      expect(Object.keys(reader ?? {})).toEqual(Object.keys(strict ?? {}));
    },
  );

  it('the v2 envelope: the reader reads what every v2 answer comes in', () => {
    expect(differences(tree(R2.V2Envelope), tree(S2.envelope(z.unknown())), 'V2Envelope')).toEqual([]);
  });

  it('a completion notification: the reader reads the v3 object, the v2 one and one older field', () => {
    // BaseImgUrl: an older documented page carries it; the sandbox never sends it
    expect(differences(tree(CallbackWire), tree(CallbackV3), 'Callback', ['Callback.BaseImgUrl'])).toEqual([]);
    expect(topKeys(CallbackV2).every((k) => topKeys(CallbackV3).includes(k))).toBe(true);
    expect([...CALLBACK_V3_FIELDS].sort()).toEqual(topKeys(CallbackV3).sort());
  });

  it('finds a field one side lacks, however deep (the check can fail)', () => {
    const strict = z.extend(S3.TestLink, {
      invitationSchedule: z.nullish(z.extend(S3.InvitationSchedule, { extra: S3.Id })),
    });
    expect(differences(tree(R3.TestLink), tree(strict), 'TestLink')).toEqual([
      'TestLink.invitationSchedule.extra: only in the strict schema',
    ]);
  });
});

describe('the field lists (--json, --help) are the readers’ own', () => {
  it.each(Object.entries(READERS))('%s lists its top-level fields', (_name, schema) => {
    expect(READ_FIELDS.get(schema)?.fields ?? topKeys(schema)).toEqual(topKeys(schema));
  });
});
