// The three v3 error-body shapes, and the choice of shape per route. Each route declares its
// style in its fastify `config`; the auth hook, the error handler and the handlers all answer
// in that style, so one endpoint never mixes shapes (except the documented 403 for a test of
// another account, which is always `{statusCode:403, message}` as on list test links).
import type { FastifyReply, FastifyRequest } from 'fastify';

export type ErrorStyle = 'errors' | 'statusMessage' | 'resultErrors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Error body shape of this route. */
    style?: ErrorStyle;
    /** Needs X-API-KEY (all /v3 routes). */
    auth?: boolean;
    /** Status for a missing/invalid key: 400 on the routes the spec's 400 row lists, else 401. */
    authStatus?: 400 | 401;
  }
  interface FastifyRequest {
    accountId: number;
  }
}

export function errorBody(style: ErrorStyle, status: number, messages: (string | number)[]): unknown {
  switch (style) {
    case 'errors':
      return { errors: messages };
    case 'resultErrors':
      return { result: null, errors: messages };
    case 'statusMessage':
      return { statusCode: status, message: messages.join('; ') };
  }
}

export function styleOf(request: FastifyRequest): ErrorStyle {
  return request.routeOptions.config?.style ?? 'errors';
}

/** Answers with an error in the route's style. */
export function fail(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  messages: (string | number)[] | string,
) {
  const list = typeof messages === 'string' ? [messages] : messages;
  return reply.code(status).send(errorBody(styleOf(request), status, list));
}

/** A test that does not exist or belongs to another account: 403, as list test links documents. */
export function testNotOwned(reply: FastifyReply, testId: number) {
  return reply.code(403).send({ statusCode: 403, message: `Test id ${testId} does not belong to this account.` });
}

/** An invitation that does not exist or belongs to another account: 401 in the route's style. */
export function invitationNotOwned(request: FastifyRequest, reply: FastifyReply, id: number) {
  return fail(request, reply, 401, `Test invitation id ${id} does not belong to this account or was not found.`);
}

const DIGITS = /^\d{1,16}$/;

/** Path id → number, or an error answer (400, route style) and null. (Hot path: no zod.) */
export function pathId(request: FastifyRequest, reply: FastifyReply, name: string): number | null {
  const raw = (request.params as Record<string, string>)[name];
  const n = DIGITS.test(raw) ? Number(raw) : NaN;
  if (n > 0 && n <= Number.MAX_SAFE_INTEGER) return n;
  fail(request, reply, 400, `${name} must be a positive integer; got '${raw}'.`);
  return null;
}

/** Scheme + host the client used, so URLs we hand out work from where the client stands. */
export function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}
