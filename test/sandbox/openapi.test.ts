// The OpenAPI document against the sandbox itself: it covers exactly the /v3 and /v2 routes the
// sandbox registers (with their error styles), the sandbox serves it at /_sandbox/openapi.json,
// and real answers of every operation are documented statuses whose bodies validate (ajv)
// against the document's schema for that status.
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, type OperationRow } from '../../src/api/operations/index.js';
import { buildServer } from '../../src/sandbox/server.js';
import { openState } from '../../src/sandbox/state-file.js';
import { jsonSchemaValidator } from '../helpers/ajv.js';
import { FULL_SETTINGS, harness, REATTEMPT_BODY, type Harness, type Res } from './helpers.js';

type Json = any;

/** `METHOD /path` of every /v3 and /v2 route the sandbox registers, with its config. */
async function servedRoutes(): Promise<Map<string, Json>> {
  const routes = new Map<string, Json>();
  const app = buildServer(openState({}), {
    onRoute: (r: RouteOptions) => {
      for (const method of [r.method].flat())
        if (method !== 'HEAD' && /^\/v[23]\//.test(r.url)) routes.set(`${method} ${r.url}`, r.config ?? {});
    },
  });
  await app.ready(); // plugins (the v2 scope) register their routes here
  await app.close();
  return routes;
}

/** The table's rows with their ids and the path in fastify's form (`/v3/tests/:testId`). */
const ROWS = Object.entries(OPERATIONS).map(([id, o]: [string, OperationRow]) => ({
  ...o,
  id,
  route: o.path.replace(/\{(\w+)\}/g, ':$1'),
}));

describe('the operation table ↔ routes the sandbox serves', () => {
  it('documents every served /v3 and /v2 route, and serves every documented one', async () => {
    const served = await servedRoutes();
    const documented = ROWS.map((o) => `${o.method} ${o.route}`);
    expect(
      [...served.keys()].filter((k) => !documented.includes(k)),
      'served but not documented',
    ).toEqual([]);
    expect(
      documented.filter((k) => !served.has(k)),
      'documented but not served',
    ).toEqual([]);
    expect(new Set(documented).size).toBe(documented.length);
  });

  it('uses the error style and key-failure status each v3 route is configured with', async () => {
    const served = await servedRoutes();
    for (const op of ROWS.filter((o) => o.style !== 'v2')) {
      const config = served.get(`${op.method} ${op.route}`);
      expect({ style: op.style, authStatus: op.authStatus ?? 401 }, op.id).toEqual({
        style: config.style,
        authStatus: config.authStatus ?? 401,
      });
    }
  });
});

describe('answers of the sandbox validate against the document', () => {
  let h: Harness;
  let doc: Json;
  const ajv = jsonSchemaValidator();
  const compiled = new Map<string, ValidateFunction>();
  const seen = new Set<string>();

  /** Asserts the status is documented for the operation and the body fits its schema. */
  function check(method: string, path: string, res: Res, ...expectStatus: number[]) {
    const op = doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
    expect(op, `${method} ${path} is documented`).toBeTruthy();
    if (expectStatus.length)
      expect(expectStatus, `${method} ${path}: ${JSON.stringify(res.body)}`).toContain(res.status);
    const response = op.responses[String(res.status)];
    expect(response, `${method} ${path} → ${res.status} is documented`).toBeTruthy();
    const [type, media] = Object.entries<Json>(response.content)[0];
    expect(res.headers.get('content-type')).toContain(type);
    seen.add(`${op.operationId} ${res.status}`);
    if (type !== 'application/json') return;
    const name = media.schema.$ref.split('/').pop();
    let validate = compiled.get(name);
    if (!validate) compiled.set(name, (validate = ajv.compile(doc.components.schemas[name])));
    expect(validate(res.body), `${method} ${path} → ${res.status} as ${name}: ${ajv.errorsText(validate.errors)}`).toBe(
      true,
    );
  }

  const v2 = (method: string, path: string, body?: unknown, key?: string) =>
    fetch(h.sb.baseUrl + path, {
      method,
      headers: { 'x-api-key': key ?? h.keyA, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({
      status: r.status,
      headers: r.headers,
      body: (r.headers.get('content-type') ?? '').includes('json') ? await r.json() : await r.arrayBuffer(),
    }));

  beforeAll(async () => {
    h = await harness();
    const r = await h.control('GET', '/openapi.json');
    expect(r.status).toBe(200);
    doc = r.body;
  });
  afterAll(() => h.close());

  it('is served at /_sandbox/openapi.json with this sandbox as its server', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([expect.objectContaining({ url: h.sb.baseUrl })]);
    expect(Object.keys(doc.paths)).toContain('/v3/tests/{testId}/invite');
  });

  it('v3: successes and every error style', async () => {
    const id = await h.inviteA(1001, 'openapi-doc@example.com');
    check(
      'POST',
      '/v3/tests/:testId/invite',
      await h.api('POST', '/v3/tests/1001/invite', { email: 'oa2@example.com', name: 'O A' }),
      200,
    );
    check(
      'POST',
      '/v3/tests/:testId/invite',
      await h.api('POST', '/v3/tests/1001/invite', { email: 'not-an-email', name: 'X' }),
      400,
    );
    check(
      'POST',
      '/v3/tests/:testId/invite',
      await h.api('POST', '/v3/tests/2001/invite', { email: 'a@example.com', name: 'X' }),
      403,
    );
    check(
      'POST',
      '/v3/tests/:testId/testlinks/:testLinkId/invite',
      await h.api('POST', '/v3/tests/1001/testlinks/5002/invite', { email: 'oa3@example.com', name: 'O' }),
      201,
    );
    check(
      'POST',
      '/v3/tests/:testId/testlinks/:testLinkId/invite',
      await h.api('POST', '/v3/tests/1001/testlinks/5999/invite', { email: 'oa3@example.com', name: 'O' }),
      404,
    );
    await h.move(id, 'complete', { score: 70 });
    for (const t of [1, 2, 3])
      check('GET', '/v3/reports/:testInvitationId', await h.api('GET', `/v3/reports/${id}?reportType=${t}`), 200);
    // Pending: null scores
    check('GET', '/v3/reports/:testInvitationId', await h.api('GET', '/v3/reports/900004'), 200);
    check('GET', '/v3/reports/:testInvitationId', await h.api('GET', '/v3/reports/900008'), 401);
    check('GET', '/v3/reports/:testInvitationId', await h.api('GET', '/v3/reports/900001', undefined, null), 400);
    await h.sb.idle(5000);
    check('GET', '/v3/reports/:testInvitationId/pdf', await h.api('GET', `/v3/reports/${id}/pdf`), 200);
    check('GET', '/v3/tests', await h.api('GET', '/v3/tests?pageSize=2'), 200);
    check('GET', '/v3/tests', await h.api('GET', '/v3/tests', undefined, 'wrong-key'), 401);
    check('GET', '/v3/timezones', await h.api('GET', '/v3/timezones'), 200);
    check('GET', '/v3/timezones', await h.api('GET', '/v3/timezones', undefined, 'wrong-key'), 401);
    check('GET', '/v3/tests/:testId', await h.api('GET', '/v3/tests/1001'), 200);
    check('GET', '/v3/tests/:testId/testlinks', await h.api('GET', '/v3/tests/1001/testlinks'), 200);
    check('GET', '/v3/tests/:testId/testlinks', await h.api('GET', '/v3/tests/2001/testlinks'), 403);
    check('GET', '/v3/tests/:testId/testlinks/:testLinkId', await h.api('GET', '/v3/tests/1001/testlinks/5003'), 200);
    const schedule = {
      scheduleType: 'validityindays',
      scheduleDetails: { invitationValidityInDays: 5, timeZoneId: 3 },
    };
    const created = await h.api('POST', '/v3/tests/1001/testlinks', {
      testLinkName: 'OpenAPI',
      invitationType: 'open',
      invitationSchedule: schedule,
    });
    check('POST', '/v3/tests/:testId/testlinks', created, 200);
    check(
      'POST',
      '/v3/tests/:testId/testlinks',
      await h.api('POST', '/v3/tests/1001/testlinks', { testLinkName: 'x', invitationType: 'bad' }),
      400,
    );
    check(
      'POST',
      '/v3/tests/:testId/testlinks/:testLinkId',
      await h.api('POST', `/v3/tests/1001/testlinks/${created.body.testLinkId}`, { testLinkStatus: 'inactive' }),
      200,
    );
    check('GET', '/v3/tests/:testId/settings', await h.api('GET', '/v3/tests/1001/settings'), 200);
    check('POST', '/v3/tests/:testId/settings', await h.api('POST', '/v3/tests/1001/settings', FULL_SETTINGS), 201);
    check(
      'POST',
      '/v3/invitations/:testInvitationId/reattempt',
      await h.api('POST', `/v3/invitations/${id}/reattempt`, REATTEMPT_BODY),
      200,
    );
    check(
      'POST',
      '/v3/invitations/:testInvitationId/reattempt',
      await h.api('POST', '/v3/invitations/900005/reattempt', REATTEMPT_BODY),
      400,
    );
    check(
      'POST',
      '/v3/invitations/:testInvitationId/cancel',
      await h.api('POST', '/v3/invitations/900004/cancel'),
      200,
    );
    const range = { StartDateTime: '2000-01-01', EndDateTime: '2100-01-01T00:00:00Z' };
    check(
      'POST',
      '/v3/candidates/testattempts',
      await h.api('POST', '/v3/candidates/testattempts?state=completed', range),
      200,
    );
    check(
      'POST',
      '/v3/candidates/testattempts',
      await h.api('POST', '/v3/candidates/testattempts?state=completed', { StartDateTime: 'yesterday' }),
      401,
    );
    check(
      'POST',
      '/v3/callbacks/process',
      await h.api('POST', '/v3/callbacks/process', { testinvitationIds: [id] }),
      200,
    );
    check(
      'POST',
      '/v3/callbacks/process',
      await h.api('POST', '/v3/callbacks/process', { testinvitationIds: [900008] }),
      401,
    );
  });

  it('v2: successes and errors', async () => {
    check('GET', '/v2/org/tests', await v2('GET', '/v2/org/tests?page_size=2'), 200);
    check('GET', '/v2/org/tests', await v2('GET', '/v2/org/tests', undefined, 'wrong'), 401);
    check('GET', '/v2/org/tests/:testId', await v2('GET', '/v2/org/tests/1001'), 200);
    check('GET', '/v2/org/tests/:testId', await v2('GET', '/v2/org/tests/2001'), 403);
    const reg = await v2('POST', '/v2/org/tests/1001/register', {
      emailId: 'v2-openapi@example.com',
      fullName: 'V Two',
    });
    check('POST', '/v2/org/tests/:testId/register', reg, 200);
    check(
      'POST',
      '/v2/org/tests/:testId/register',
      await v2('POST', '/v2/org/tests/1001/register', { emailId: 'nope' }),
      400,
    );
    check(
      'POST',
      '/v2/org/tests/:testId/testlinks/:testLinkId/register',
      await v2('POST', '/v2/org/tests/1001/testlinks/5002/register', { emailId: 'v2b@example.com', fullName: 'V' }),
      200,
    );
    check(
      'POST',
      '/v2/org/tests/:testId/testlinks/:testLinkId/register',
      await v2('POST', '/v2/org/tests/1001/testlinks/5999/register', { emailId: 'v2b@example.com', fullName: 'V' }),
      404,
    );
    for (const inv of [900001, 900004]) {
      check('GET', '/v2/org/report/:testInvitationId', await v2('GET', `/v2/org/report/${inv}`), 200);
      check('GET', '/v2/org/report/:testInvitationId/sections', await v2('GET', `/v2/org/report/${inv}/sections`), 200);
    }
    check('GET', '/v2/org/report/:testInvitationId/pdf', await v2('GET', '/v2/org/report/900001/pdf'), 200);
    check('GET', '/v2/org/report/:testInvitationId/pdf', await v2('GET', '/v2/org/report/900004/pdf'), 400);
    check('GET', '/v2/org/tests/:testId/testlinks', await v2('GET', '/v2/org/tests/1001/testlinks'), 200);
    check(
      'GET',
      '/v2/org/tests/:testId/testlinks/:testLinkId',
      await v2('GET', '/v2/org/tests/1001/testlinks/5002'),
      200,
    );
    const link = await v2('POST', '/v2/org/tests/1001/testlinks', {
      testLinkName: 'v2 OpenAPI',
      accessTime: 1,
      startDateTime: '2030-01-01T00:00:00',
      endDateTime: '2030-02-01T00:00:00',
    });
    check('POST', '/v2/org/tests/:testId/testlinks', link, 200);
    check(
      'POST',
      '/v2/org/tests/:testId/testlinks/:testLinkId',
      await v2('POST', `/v2/org/tests/1001/testlinks/${(link.body as Json).result.testLinkId}`, { testLinkStatus: 3 }),
      200,
    );
  });

  it('exercised every documented operation', () => {
    const exercised = new Set([...seen].map((s) => s.split(' ')[0]));
    expect(ROWS.map((o) => o.id).filter((id) => !exercised.has(id))).toEqual([]);
  });
});
