// One wire definition (issue 32): the strict schemas (src/api/schemas: what the sandbox answers
// and the OpenAPI document describes), the tolerant reader (src/api/read: what the client reads
// and the printer prints) and the plain field lists (src/api/wire-fields.ts: what `--json a,b`
// may name and `--help` lists) name the same fields, at every level, for every wire object of
// v3 and v2. A field added to one and not the others fails here.
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import * as R2 from '../../src/api/read/v2.js';
import * as R3 from '../../src/api/read/v3.js';
import { CallbackWire } from '../../src/api/read/callback.js';
import * as S2 from '../../src/api/schemas/v2.js';
import * as S3 from '../../src/api/schemas/v3.js';
import { CallbackV2, CallbackV3 } from '../../src/api/schemas/callback.js';
import { CALLBACK_V3_FIELDS } from '../../src/api/wire-constants.js';
import { WIRE_FIELDS } from '../../src/api/wire-fields.js';

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

/**
 * Each reader export and the strict schema of the same object. Where the strict side is the
 * answer's envelope, its `result`; settings: the full-replace body, the only strict schema that
 * names the settings (the read-back one is deliberately open).
 */
const PAIRS: Record<string, [reader: Schema, strict: Schema]> = {
  TestSummary: [R3.TestSummary, S3.TestSummary],
  TestsList: [R3.TestsList, S3.TestsListResponse],
  TestDetail: [R3.TestDetail, S3.TestDetail],
  TestLink: [R3.TestLink, S3.TestLink],
  TestLinks: [R3.TestLinks, S3.TestLinksResponse],
  WrittenLink: [R3.WrittenLink, S3.TestLink],
  Invitation: [R3.Invitation, S3.InviteResponse],
  Reattempt: [R3.Reattempt, S3.ReattemptResponse],
  Cancelled: [R3.Cancelled, S3.CancelResponse],
  Report: [R3.Report, S3.Report],
  TestAttempt: [R3.TestAttempt, S3.TestAttempt],
  TestAttempts: [R3.TestAttempts, S3.ListAttemptsResponse.shape.result],
  ProcessedCallbacks: [R3.ProcessedCallbacks, S3.ProcessCallbacksResponse.shape.result],
  Settings: [R3.Settings, S3.TestSettings],
  TimeZone: [R3.TimeZone, S3.TimeZone],
  TimeZones: [R3.TimeZones, S3.TimeZonesResponse],
  V2Test: [R2.V2Test, S2.V2Test],
  V2Tests: [R2.V2Tests, S2.V2TestsResult],
  V2TestDetail: [R2.V2TestDetail, S2.V2TestDetail],
  V2Registered: [R2.V2Registered, S2.V2RegisterResult],
  V2LinkRegistered: [R2.V2LinkRegistered, S2.V2LinkRegisterResult],
  V2Report: [R2.V2Report, S2.V2Report],
  V2SectionScore: [R2.V2SectionScore, S2.V2SectionScore],
  V2SectionReport: [R2.V2SectionReport, S2.V2SectionReport],
  V2TestLink: [R2.V2TestLink, S2.V2TestLink],
  V2TestLinks: [R2.V2TestLinks, S2.V2TestLinksResult],
  V2WrittenLink: [R2.V2WrittenLink, S2.V2TestLink],
  // the envelope around every v2 answer (its result is each operation's own object, above)
  V2Envelope: [R2.V2Envelope, S2.envelope(z.unknown())],
  // the invite by link answers the same fields as the plain invite
  'Invitation (by link)': [R3.Invitation, S3.InviteByLinkResponse],
};

const isSchema = (v: unknown): v is Schema => v instanceof z.core.$ZodType;

describe('the tolerant reader and the strict schemas', () => {
  it('every schema the reader exports (v3 and v2) is paired with its strict schema', () => {
    const exported = [...Object.entries(R3), ...Object.entries(R2)].filter(([, v]) => isSchema(v)).map(([k]) => k);
    expect(exported.filter((k) => !(k in PAIRS))).toEqual([]);
  });

  it.each(Object.entries(PAIRS))('%s: the same fields at every level', (name, [reader, strict]) => {
    expect(tree(strict)).not.toBeNull();
    expect(differences(tree(reader), tree(strict), name)).toEqual([]);
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

describe('the plain field lists (--json, --help)', () => {
  it.each(Object.entries(WIRE_FIELDS))('%s: the strict schema and the reader, in the strict order', (name, list) => {
    const [reader, strict] = PAIRS[name]!;
    expect([...list]).toEqual(topKeys(strict));
    expect([...list].sort()).toEqual(topKeys(reader).sort());
  });

  it('lists every object a command prints whole', () => {
    const printed = [
      'TestSummary',
      'TestDetail',
      'TestLink',
      'Invitation',
      'Reattempt',
      'Cancelled',
      'Report',
      'TestAttempt',
      'Settings',
      'TimeZone',
    ];
    const v2 = [
      'V2Test',
      'V2TestDetail',
      'V2Registered',
      'V2LinkRegistered',
      'V2Report',
      'V2SectionScore',
      'V2TestLink',
    ];
    expect(Object.keys(WIRE_FIELDS).sort()).toEqual([...printed, ...v2].sort());
  });
});
