// Errors and lookups of the v2 routes. The spec shows no v2 error shape; the sandbox answers in
// the v2 envelope's own vocabulary: {statuscode: "<HTTP status>.1", description} with the same
// HTTP status (400 bad input, 401 key, 403 another account's id, 404 not on that test).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { V2ErrorBody } from '../api/schemas/v2.js';
import type { SandboxInvitation, SandboxLink, SandboxTest } from './model.js';
import { ACCOUNT_BY_KEY } from './seed.js';
import type { Store } from './store.js';

export const v2ErrorBody = (status: number, description: string): V2ErrorBody => ({
  statuscode: `${status}.1`,
  description,
});

export function v2fail(reply: FastifyReply, status: number, messages: string | string[]) {
  return reply.code(status).send(v2ErrorBody(status, typeof messages === 'string' ? messages : messages.join('; ')));
}

/** onRequest hook of the v2 scope: x-api-key (any case) → account, else 401. Keys are never stored. */
export async function authenticateV2(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const raw = request.headers['x-api-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  const accountId = key ? ACCOUNT_BY_KEY.get(key.trim()) : undefined;
  if (accountId === undefined)
    return v2fail(
      reply,
      401,
      key
        ? 'Invalid API key: send a valid key in the x-api-key header.'
        : 'Missing API key: send your key in the x-api-key header.',
    );
  request.accountId = accountId;
}

const DIGITS = /^\d{1,16}$/;

/** Path id → number, or a 400 answer and null. */
export function v2PathId(request: FastifyRequest, reply: FastifyReply, name: string): number | null {
  const raw = (request.params as Record<string, string>)[name];
  const n = DIGITS.test(raw) ? Number(raw) : NaN;
  if (n > 0 && n <= Number.MAX_SAFE_INTEGER) return n;
  v2fail(reply, 400, `${name} must be a positive integer; got '${raw}'.`);
  return null;
}

/** The account's test from the path, or an answer already sent (403 for unknown or foreign ids). */
export function v2OwnedTest(store: Store, request: FastifyRequest, reply: FastifyReply): SandboxTest | null {
  const testId = v2PathId(request, reply, 'testId');
  if (testId === null) return null;
  const test = store.ownedTest(request.accountId, testId);
  if (!test) return (v2fail(reply, 403, `Test id ${testId} does not belong to this account.`), null);
  return test;
}

/** The account's test and one of its links from the path, or an answer already sent. */
export function v2OwnedLink(
  store: Store,
  request: FastifyRequest,
  reply: FastifyReply,
): { test: SandboxTest; link: SandboxLink } | null {
  const test = v2OwnedTest(store, request, reply);
  if (!test) return null;
  const linkId = v2PathId(request, reply, 'testLinkId');
  if (linkId === null) return null;
  const link = store.link(linkId);
  if (!link || link.testId !== test.testId)
    return (v2fail(reply, 404, `Test link id ${linkId} was not found on test ${test.testId}.`), null);
  return { test, link };
}

/** The account's invitation from the path, or an answer already sent (403 unknown or foreign). */
export function v2OwnedInvitation(
  store: Store,
  request: FastifyRequest,
  reply: FastifyReply,
): SandboxInvitation | null {
  const id = v2PathId(request, reply, 'testInvitationId');
  if (id === null) return null;
  const inv = store.ownedInvitation(request.accountId, id);
  if (!inv)
    return (v2fail(reply, 403, `Test invitation id ${id} does not belong to this account or was not found.`), null);
  return inv;
}
