// X-API-KEY → account. Keys are compared in memory only; they are never stored or logged.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fail } from './replies.js';
import { ACCOUNT_BY_KEY } from './seed.js';

export const INVALID_KEY = 'Invalid API key: send a valid key in the X-API-KEY header.';
export const MISSING_KEY = 'Missing API key: send your key in the X-API-KEY header.';

/** onRequest hook for routes with `config.auth`. Node lower-cases header names, so any case works. */
export async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const config = request.routeOptions.config;
  if (!config?.auth) return;
  const raw = request.headers['x-api-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  const accountId = key ? ACCOUNT_BY_KEY.get(key.trim()) : undefined;
  if (accountId === undefined) {
    const status = config.authStatus ?? 401;
    return fail(request, reply, status, key ? INVALID_KEY : MISSING_KEY);
  }
  request.accountId = accountId;
}
