// Quirks mode: the sandbox answers with the variance a real service shows (`sandbox serve
// --quirks SEED`, `POST /_sandbox/quirks {"seed": N}`). The state and its rules are unchanged;
// only the form of each successful answer varies: the production service's own forms
// (vendor-facts.md), ids as strings, nulls, `{result, errors: null}` envelopes, 201/204 for 200,
// enum casings and synonyms, other spellings, extra fields, missing optional fields.
//
// Deterministic per seed: the n-th answer to the same method and URL always gets the same
// quirks, whatever other requests run in between. Some choices hold for the whole seed (a
// service is consistent in them): production's typeOfTest numbering and its gateway's 401.
import { API_PREFIX, isServicePath, pathOf } from '../api/operations/index.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fnv1a } from '../util/fnv1a.js';
import { INVALID_KEY, MISSING_KEY } from './auth.js';
import { seededRandom } from './fault-spec.js';
import { answerLoopbackOnly } from './routes/control.js';
import {
  addExtras,
  dropOptional,
  idsAsStrings,
  isObject,
  nullOptional,
  respell,
  typeOfTestFromVendor,
  typeOfTestToVendor,
  varyEnums,
  type Json,
} from './quirks-rules.js';

/** The production gateway's answer to a missing or wrong key (vendor facts). */
export const GATEWAY_401 = {
  statusCode: 401,
  message:
    'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.',
};

export interface QuirksView {
  seed: number | null;
  /** Seed-wide choices. */
  vendorTypeOfTest: boolean;
  gateway401: boolean;
  /** Answers rewritten so far. */
  rewritten: number;
}

export class Quirks {
  private seed: number | null = null;
  private counts = new Map<string, number>();
  private rewritten = 0;
  vendorTypeOfTest = false;
  gateway401 = false;

  constructor(seed?: number | null) {
    this.set(seed ?? null);
  }

  set(seed: number | null): void {
    this.seed = seed;
    this.counts.clear();
    this.rewritten = 0;
    const r = seededRandom(fnv1a(`seed:${seed}`));
    this.vendorTypeOfTest = seed !== null && r() < 0.5;
    this.gateway401 = seed !== null && r() < 0.5;
  }

  get on(): boolean {
    return this.seed !== null;
  }

  view(): QuirksView {
    return {
      seed: this.seed,
      vendorTypeOfTest: this.vendorTypeOfTest,
      gateway401: this.gateway401,
      rewritten: this.rewritten,
    };
  }

  /** The random numbers of the n-th answer to this method and URL. */
  private rngFor(method: string, url: string): () => number {
    const key = `${method} ${url}`;
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    return seededRandom(fnv1a(`${this.seed}|${key}|${n}`));
  }

  /** Rewrites one answer: a new status and body (body undefined = no body). */
  rewrite(method: string, url: string, status: number, body: Json): { status: number; body: Json | undefined } {
    const r = this.rngFor(method, url);
    const chance = (p: number) => () => r() < p;
    const path = url.split('?')[0]!;
    const v2 = path.startsWith(`${API_PREFIX.v2}/`);
    this.rewritten++;
    if (status >= 400) return { status, body };
    let out: Json | undefined = body;
    // the production service's own forms, where it differs from the spec
    if (!v2) out = vendorForm(method, path, out, r) ?? out;
    if (out === undefined) return { status: 204, body: undefined };
    if (r() < 0.5) idsAsStrings(out);
    if (r() < 0.4) nullOptional(out, chance(0.3));
    if (r() < 0.4) dropOptional(out, chance(0.25));
    if (r() < 0.5) varyEnums(out, (n) => Math.floor(r() * n));
    if (r() < 0.5) respell(out, chance(0.5));
    if (r() < 0.4) addExtras(out, Math.floor(r() * 1e6));
    if (isObject(out) && this.vendorTypeOfTest && /\/settings$/.test(path)) typeOfTestToVendor(out);
    let code = status;
    if (method === 'POST' && status === 200 && r() < 0.4) code = 201;
    if (!v2 && r() < 0.35 && !(isObject(out) && 'result' in out)) out = { result: out, errors: null };
    if (v2 && isObject(out) && r() < 0.5) {
      // the envelope's statuscode as a number, its key in another case
      const { statuscode, ...rest } = out;
      out = { statusCode: typeof statuscode === 'string' ? Number(statuscode) : statuscode!, ...rest };
    }
    return { status: code, body: out };
  }
}

/** Production's forms per operation (vendor facts); undefined body = answer 204. */
function vendorForm(method: string, path: string, body: Json, r: () => number): Json | undefined {
  if (!isObject(body)) return body;
  if (method === 'POST' && /^\/v3\/tests\/[^/]+\/invite$/.test(path) && r() < 0.6) {
    delete body.status; // 201 {testInvitationId, testUrl}
    return body;
  }
  if (method === 'POST' && /\/testlinks\/[^/]+\/invite$/.test(path) && r() < 0.5) return { ...body, status: 'Pending' };
  if (method === 'POST' && /^\/v3\/invitations\/[^/]+\/cancel$/.test(path)) {
    const form = r();
    if (form < 0.2) return undefined; // 204
    if (form < 0.4) return {};
    if (form < 0.6) return { result: 'Test invitation cancelled successfully.', errors: null };
    return body;
  }
  if (method === 'GET' && /^\/v3\/reports\/[^/]+$/.test(path) && r() < 0.6) {
    if (typeof body.attemptedOn === 'string') body.attemptedOn = body.attemptedOn.replace(/(\.\d+)?Z$/, '');
    if (typeof body.testId === 'number') body.testId = String(body.testId);
    if (typeof body.scorePercentage === 'number') body.scorePercentage = Math.round(body.scorePercentage);
    if (r() < 0.5) delete body.PerformanceCategory;
    if ('status' in body && !('Status' in body)) {
      body.Status = body.status;
      delete body.status;
    }
    return body;
  }
  if (method === 'POST' && path === pathOf('v3.listAttempts') && r() < 0.7) {
    const list = isObject(body.result) ? body.result.testAttempts : undefined;
    if (Array.isArray(list))
      for (const a of list) if (isObject(a) && a.testStatus === 'Complete') a.testStatus = 'Completed';
    return body;
  }
  return body;
}

const isService = isServicePath;

/** Hooks quirks into the server: answers rewritten in onSend; production's typeOfTest read back. */
export function registerQuirks(app: FastifyInstance, quirks: Quirks): void {
  app.addHook('preHandler', async (request: FastifyRequest) => {
    if (
      quirks.on &&
      quirks.vendorTypeOfTest &&
      request.method === 'POST' &&
      /^\/v3\/tests\/[^/]+\/settings$/.test(request.url.split('?')[0]!)
    )
      typeOfTestFromVendor(request.body);
  });
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!quirks.on || !isService(request.url)) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (typeof payload !== 'string' || !type.includes('json')) return payload;
    let body: Json;
    try {
      body = JSON.parse(payload) as Json;
    } catch {
      return payload;
    }
    if (reply.statusCode === 400 || reply.statusCode === 401) {
      const text = JSON.stringify(body);
      if (quirks.gateway401 && (text.includes(INVALID_KEY) || text.includes(MISSING_KEY))) {
        reply.code(401);
        return JSON.stringify(GATEWAY_401);
      }
      return payload;
    }
    const out = quirks.rewrite(request.method, request.url, reply.statusCode, body);
    reply.code(out.status);
    if (out.body === undefined) {
      reply.removeHeader('content-type');
      return '';
    }
    return JSON.stringify(out.body);
  });
}

export function registerQuirkRoutes(app: FastifyInstance, quirks: Quirks): void {
  app.register(
    async (c) => {
      answerLoopbackOnly(c);
      c.get('/', async () => quirks.view());
      c.post('/', async (request, reply) => {
        const seed = (request.body as { seed?: unknown } | undefined)?.seed;
        if (seed !== null && !(Number.isInteger(seed) && (seed as number) >= 0))
          return reply.code(400).send({
            errors: ['Send {"seed": N} (a whole number ≥ 0) to turn quirks on, {"seed": null} to turn them off.'],
          });
        quirks.set(seed as number | null);
        return quirks.view();
      });
      c.delete('/', async () => {
        quirks.set(null);
        return quirks.view();
      });
    },
    { prefix: '/_sandbox/quirks' },
  );
}
