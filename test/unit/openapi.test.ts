// The generated OpenAPI document is well-formed OpenAPI 3.1: every path has operations with
// responses, every $ref resolves, path parameters match the templates, every schema is valid
// JSON Schema 2020-12 (compiled by ajv), v2 is deprecated, and docs/openapi.json is current.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/api/operations/index.js';
import { REQUEST_SCHEMAS, RESPONSE_SCHEMAS } from '../../src/api/schemas/catalog.js';
import { buildOpenApi, openApiFileText } from '../../src/sandbox/openapi/index.js';
import { jsonSchemaValidator } from '../helpers/ajv.js';
import { ROOT } from '../helpers/cli.js';

type Json = any;
const doc: Json = buildOpenApi();
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]: [string, Json]) =>
    Object.entries(item)
      .filter(([m]) => METHODS.includes(m))
      .map(([method, op]) => ({ path, method, op: op as Json })),
  );

/** Every `$ref` anywhere in the value. */
function refs(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) v.forEach((x) => refs(x, out));
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) k === '$ref' && typeof x === 'string' ? out.push(x) : refs(x, out);
  return out;
}

function resolvePointer(pointer: string): unknown {
  expect(pointer.startsWith('#/'), `${pointer} is a local reference`).toBe(true);
  return pointer
    .slice(2)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<Json>((node, key) => (node == null ? undefined : node[key]), doc);
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with info, servers and both API-key schemes', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBeTruthy();
    expect(doc.info.version).toBeTruthy();
    expect(doc.servers[0].url).toMatch(/^http:\/\//);
    expect(doc.components.securitySchemes.ApiKeyV3).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-KEY' }),
    );
    expect(doc.components.securitySchemes.ApiKeyV2).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
    );
  });

  it("documents the 16 v3 operations of the spec, the vendor's time-zone list, and 11 v2 operations (the spec's v2 table has 11 rows), each with a unique operationId and responses", () => {
    const ops = operations();
    expect(ops.filter((o) => o.path.startsWith('/v3/'))).toHaveLength(17);
    expect(ops.filter((o) => o.path === '/v3/timezones')).toHaveLength(1);
    expect(ops.filter((o) => o.path.startsWith('/v2/org/'))).toHaveLength(11);
    expect(ops).toHaveLength(Object.keys(OPERATIONS).length);
    expect(new Set(ops.map((o) => o.op.operationId)).size).toBe(ops.length);
    for (const [path, item] of Object.entries<Json>(doc.paths))
      expect(Object.keys(item).filter((k) => METHODS.includes(k)).length, path).toBeGreaterThan(0);
    for (const { path, method, op } of ops) {
      const statuses = Object.keys(op.responses);
      expect(
        statuses.some((s) => /^2\d\d$/.test(s)),
        `${method} ${path} has a success response`,
      ).toBe(true);
      expect(
        statuses.some((s) => /^4\d\d$/.test(s)),
        `${method} ${path} has an error response`,
      ).toBe(true);
      for (const r of Object.values<Json>(op.responses)) expect(r.description, `${method} ${path}`).toBeTruthy();
    }
  });

  it('marks v2 deprecated with the x-api-key scheme, v3 current with X-API-KEY', () => {
    for (const { path, op } of operations()) {
      const v2 = path.startsWith('/v2/');
      expect(op.deprecated === true, path).toBe(v2);
      expect(op.security, path).toEqual([{ [v2 ? 'ApiKeyV2' : 'ApiKeyV3']: [] }]);
    }
  });

  it('declares exactly the path parameters of each template', () => {
    for (const { path, method, op } of operations()) {
      const inTemplate = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = op.parameters.filter((p: Json) => p.in === 'path');
      expect(
        declared.map((p: Json) => p.name),
        `${method} ${path}`,
      ).toEqual(inTemplate);
      for (const p of declared) expect(p.required).toBe(true);
    }
    const report = doc.paths['/v3/reports/{testInvitationId}'].get;
    expect(report.parameters.find((p: Json) => p.in === 'query')).toEqual(
      expect.objectContaining({ name: 'reportType', required: false }),
    );
    const attempts = doc.paths['/v3/candidates/testattempts'].post;
    expect(attempts.parameters.find((p: Json) => p.in === 'query').schema.enum).toEqual([
      'completed',
      'cancelled',
      'expired',
    ]);
  });

  it('resolves every $ref, and every schema compiles as JSON Schema 2020-12', () => {
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(40);
    for (const r of all) expect(resolvePointer(r), r).toBeTruthy();
    const ajv = jsonSchemaValidator();
    for (const [name, schema] of Object.entries(doc.components.schemas))
      expect(() => ajv.compile(schema as object), name).not.toThrow();
  });

  it('names every component once (request and response names do not collide)', () => {
    const req = Object.keys(REQUEST_SCHEMAS);
    const res = Object.keys(RESPONSE_SCHEMAS);
    expect(req.filter((n) => res.includes(n))).toEqual([]);
    expect(Object.keys(doc.components.schemas).sort()).toEqual([...req, ...res, 'CompletionNotification'].sort());
  });

  it('carries the date-time formats zod checks in refinements as patterns', () => {
    const reattempt = doc.components.schemas.ReattemptRequest;
    expect(new RegExp(reattempt.properties.StartDateTime.pattern).test('2026-01-02T03:04:05Z')).toBe(true);
    expect(new RegExp(reattempt.properties.StartDateTime.pattern).test('2026-01-02T03:04:05')).toBe(false);
    const v2link = doc.components.schemas.V2TestLinkInput;
    expect(
      new RegExp(v2link.properties.startDateTime.anyOf?.[0]?.pattern ?? v2link.properties.startDateTime.pattern).test(
        '2026-01-02T03:04:05',
      ),
    ).toBe(true);
  });

  it('agrees with zod on sample request bodies (valid ones pass both, invalid ones fail both)', () => {
    const ajv = jsonSchemaValidator();
    const schedule = {
      scheduleType: 'timebound',
      scheduleDetails: { startDateTime: '2030-01-01T00:00:00Z', endDateTime: '2030-02-01T00:00:00Z', timeZoneId: 3 },
    };
    const samples: Array<[keyof typeof REQUEST_SCHEMAS, unknown, boolean]> = [
      [
        'InviteRequest',
        { email: 'a@example.com', name: 'A', sendEmail: 'yes', startDateTime: '2030-01-01T00:00:00Z' },
        true,
      ],
      ['InviteRequest', { email: 'a@example.com', name: 'A', sendEmail: 'maybe' }, false],
      [
        'ReattemptRequest',
        { StartDateTime: '2030-01-01T00:00:00Z', EndDateTime: '2030-01-02T00:00:00Z', TimeZoneId: 1 },
        true,
      ],
      [
        'ReattemptRequest',
        { StartDateTime: '2030-01-01T00:00:00', EndDateTime: '2030-01-02T00:00:00Z', TimeZoneId: 1 },
        false,
      ],
      ['TestLinkInput', { testLinkName: 'L', invitationType: 'open', invitationSchedule: schedule }, true],
      [
        'TestLinkInput',
        {
          testLinkName: 'L',
          invitationType: 'open',
          invitationSchedule: { scheduleType: 'timebound', scheduleDetails: { timeZoneId: 3 } },
        },
        false,
      ],
      ['ProcessCallbacksRequest', { testinvitationIds: [900001] }, true],
      ['ProcessCallbacksRequest', { testinvitationIds: Array.from({ length: 101 }, (_, i) => i + 1) }, false],
      [
        'V2TestLinkInput',
        { testLinkName: 'L', accessTime: 1, startDateTime: '2030-01-01T00:00:00', endDateTime: '2030-02-01T00:00:00' },
        true,
      ],
      ['V2TestLinkInput', { testLinkName: 'L', accessTime: 7 }, false],
    ];
    for (const [name, body, valid] of samples) {
      expect(REQUEST_SCHEMAS[name].safeParse(body).success, `zod ${name} ${JSON.stringify(body)}`).toBe(valid);
      expect(ajv.validate(doc.components.schemas[name], body), `JSON Schema ${name} ${JSON.stringify(body)}`).toBe(
        valid,
      );
    }
  });

  it('is what docs/openapi.json holds (regenerate with `npm run openapi`)', () => {
    const file = readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8');
    expect(file === openApiFileText(), 'docs/openapi.json is stale: run `npm run openapi` and commit it').toBe(true);
  });
});
