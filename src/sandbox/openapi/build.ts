// Builds the OpenAPI 3.1 document of the service the sandbox serves (v3, and v2 marked
// deprecated) from the operation table (src/api/operations/) and the shared zod wire schemas
// (src/api/schemas/catalog.ts), with zod's own
// z.toJSONSchema. Schemas are converted in "input" mode: the shape that travels on the wire
// (a request as the client sends it, a response as the sandbox sends it and the client reads it),
// so defaults are optional and transforms (e.g. `{result:…}` unwrapping) do not show.
import * as z from 'zod/mini';
import { IdParam, READS_SECTION_ID, UtcDateTime } from '../../api/schemas/common.js';
import { V2DateTime } from '../../api/schemas/v2.js';
import { CallbackWire } from '../../api/read/callback.js';
import { OPERATIONS, paramsOf, type OperationId, type OperationRow } from '../../api/operations/index.js';
import { REQUEST_SCHEMAS, RESPONSE_SCHEMAS } from '../../api/schemas/catalog.js';

type Json = Record<string, unknown>;

export interface OpenApiOptions {
  /** The `servers` entry; default a placeholder for `assess sandbox serve --port 4010`. */
  serverUrl?: string;
}

/** Formats that live in zod refinements, which JSON Schema cannot carry: stated as patterns. */
const PATTERNS = new Map<unknown, Json>([
  [
    UtcDateTime,
    { pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$', description: 'UTC date-time YYYY-MM-ddTHH:mm:ssZ' },
  ],
  [
    V2DateTime,
    { pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$', description: 'UTC date-time YYYY-MM-ddTHH:mm:ss (no Z)' },
  ],
]);

/**
 * The one preprocess JSON Schema cannot see and the wire relies on: report sections arrive as
 * `sectionID` (sandbox and samples) and are read as `sectionId`. Documented as "either spelling".
 */
function allowSectionIdSpellings(json: Json): void {
  const props = json.properties as Record<string, Json> | undefined;
  if (!props?.sectionId) return;
  props.sectionID = props.sectionId;
  const required = json.required as string[] | undefined;
  if (!required?.includes('sectionId')) return;
  json.required = required.filter((k) => k !== 'sectionId');
  json.anyOf = [{ required: ['sectionId'] }, { required: ['sectionID'] }];
}

export function toWireJsonSchema(schema: z.core.$ZodType): Json {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12', // the dialect of OpenAPI 3.1
    io: 'input',
    unrepresentable: 'any', // e.g. a transform's output: documented as "anything" rather than failing
    override: (ctx) => {
      const extra = PATTERNS.get(ctx.zodSchema);
      if (extra) Object.assign(ctx.jsonSchema, extra);
      if (READS_SECTION_ID.has(ctx.zodSchema)) allowSectionIdSpellings(ctx.jsonSchema as Json);
    },
  }) as Json;
  delete json.$schema; // the document's dialect applies
  return json;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const V3_ERROR_BODY = {
  errors: 'ErrorsBody',
  statusMessage: 'StatusMessageBody',
  resultErrors: 'ResultErrorsBody',
} as const;

/** The error body of a status, as src/sandbox/replies.ts picks it (403 is always statusCode/message). */
function errorBodyName(op: OperationRow, status: number): string {
  if (op.style === 'v2') return 'V2ErrorBody';
  return status === 403 ? 'StatusMessageBody' : V3_ERROR_BODY[op.style];
}

const ERROR_MEANING: Record<number, string> = {
  400: 'Missing or invalid input (path id, query or body)',
  401: "An id that is not this account's (or not found)",
  403: 'The test (or invitation) does not belong to this account',
  404: 'The test link is not on this test',
};

/** What a status means on this operation; the key check answers with authStatus. */
function errorMeaning(op: OperationRow, status: number, authStatus: number): string {
  const own = op.errors.includes(status) ? ERROR_MEANING[status] : undefined;
  if (status !== authStatus) return own ?? 'Error';
  return own && status !== 401
    ? `${own}; or a missing or invalid API key`
    : `Missing or invalid API key${own ? `; or ${own[0].toLowerCase()}${own.slice(1)}` : ''}`;
}

function operationObject(id: OperationId, op: OperationRow, components: Record<string, Json>): Json {
  const v2 = op.style === 'v2';
  const parameters: Json[] = paramsOf(op.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: toWireJsonSchema(IdParam),
  }));
  if (op.query) {
    const q = components[op.query] as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(q.properties ?? {}))
      parameters.push({ name, in: 'query', required: (q.required ?? []).includes(name), schema });
  }
  const responses: Json = {};
  responses[String(op.answer.status)] =
    op.answer.wire === 'pdf'
      ? {
          description: 'The report as a PDF file',
          content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } },
        }
      : { description: 'Success', content: { 'application/json': { schema: ref(op.answer.wire) } } };
  const authStatus = v2 ? 401 : (op.authStatus ?? 401);
  for (const status of [...new Set([...op.errors, authStatus])].sort((a, b) => a - b))
    responses[String(status)] = {
      description: errorMeaning(op, status, authStatus),
      content: { 'application/json': { schema: ref(errorBodyName(op, status)) } },
    };
  return {
    operationId: id,
    summary: op.summary,
    ...(op.notes ? { description: op.notes } : {}),
    tags: [v2 ? 'v2 (deprecated)' : 'v3'],
    security: [{ [v2 ? 'ApiKeyV2' : 'ApiKeyV3']: [] }],
    parameters,
    ...(op.body
      ? { requestBody: { required: !op.bodyOptional, content: { 'application/json': { schema: ref(op.body) } } } }
      : {}),
    responses,
    ...(v2 ? { deprecated: true } : {}),
  };
}

/** Standard Webhooks headers `callbacks listen --forward-to … --sign` adds (the service sends none). */
const SIGNED_FORWARD_HEADERS: Json[] = [
  {
    name: 'webhook-id',
    description:
      'Signed forwards only: stable per notification (`msg_` + 24 base64url characters of SHA-256 over the body); ' +
      'de-duplicate on it',
    schema: { type: 'string', pattern: '^msg_[A-Za-z0-9_-]{24}$' },
  },
  {
    name: 'webhook-timestamp',
    description: 'Signed forwards only: when it was signed, Unix seconds',
    schema: { type: 'string', pattern: '^\\d{1,12}$' },
  },
  {
    name: 'webhook-signature',
    description:
      'Signed forwards only: space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>" ' +
      'with the secret>`',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
  },
].map((h) => ({ ...h, in: 'header', required: false }));

/** The completion notification the service POSTs to an invitation's callback URL (OpenAPI 3.1 `webhooks`). */
function webhooks(): Json {
  return {
    completionNotification: {
      post: {
        operationId: 'completionNotification',
        summary: 'Completion notification (callback)',
        description:
          "POSTed as JSON to the invitation's callbackUrl when the attempt goes In Progress and at its terminal " +
          'state (Complete, Test Left, ' +
          'Terminated); retried 5 times back to back, then dropped (`POST /v3/callbacks/process` re-queues it). The ' +
          'service does not sign it. ' +
          'Field names may arrive in any casing and numbers as numeric strings: `assess callbacks listen` reads them ' +
          'with the same schema ' +
          '(src/api/read/callback.ts), stores every body before it answers, and adds the webhook-* headers below to ' +
          'what it forwards with --sign.',
        parameters: SIGNED_FORWARD_HEADERS,
        requestBody: { required: true, content: { 'application/json': { schema: ref('CompletionNotification') } } },
        responses: {
          '200': {
            description: 'Stored (assess callbacks listen answers 200 for everything it stored, understood or not)',
          },
          '503': { description: 'Could not be stored: the sender retries' },
        },
      },
    },
  };
}

/** The whole document. Deterministic for given options (docs/openapi.json is checked for staleness). */
export function buildOpenApi(opts: OpenApiOptions = {}): Json {
  const components: Record<string, Json> = {};
  for (const [name, schema] of Object.entries({ ...REQUEST_SCHEMAS, ...RESPONSE_SCHEMAS }))
    components[name] = toWireJsonSchema(schema);
  components.CompletionNotification = toWireJsonSchema(CallbackWire);
  const paths: Record<string, Json> = {};
  for (const [id, op] of Object.entries(OPERATIONS) as Array<[OperationId, OperationRow]>)
    (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(id, op, components);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Online Assessment Service API (as served by the assess sandbox)',
      version: '3',
      description:
        'v3 (current) and v2 (deprecated) operations the sandbox serves, generated from the zod wire schemas the ' +
        'assess client and sandbox share (src/api/schemas/). Responses are open objects: unknown fields may appear. ' +
        'Every operation may also answer 413 (body over 1 MB), 500, or an injected fault (see docs/sandbox.md).',
    },
    servers: [
      opts.serverUrl
        ? { url: opts.serverUrl, description: 'This sandbox (v3 and v2 share the origin)' }
        : {
            url: 'http://127.0.0.1:4010',
            description: 'assess sandbox serve --port 4010 (v3 and v2 share the origin)',
          },
    ],
    tags: [
      { name: 'v3', description: 'Current interface' },
      { name: 'v2 (deprecated)', description: 'Deprecated interface under /v2/org' },
    ],
    paths,
    webhooks: webhooks(),
    components: {
      schemas: components,
      securitySchemes: {
        ApiKeyV3: { type: 'apiKey', in: 'header', name: 'X-API-KEY', description: 'v3: the account API key' },
        ApiKeyV2: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'v2: the account API key' },
      },
    },
  };
}
