// X-API-KEY → account. Keys are compared in memory only; they are never stored or logged.
import type {
  FastifyContextConfig,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
  RouteOptions,
} from 'fastify';
import { errorBody } from './replies.js';
import { ACCOUNT_BY_KEY } from './seed.js';

export const INVALID_KEY = 'Invalid API key: send a valid key in the X-API-KEY header.';
export const MISSING_KEY = 'Missing API key: send your key in the X-API-KEY header.';

/**
 * The key check of one route, built once from its config (so the hot path does not read
 * request.routeOptions, which fastify rebuilds on every access). Node lower-cases header
 * names, so any spelling of X-API-KEY works.
 */
export function authHookFor(config: FastifyContextConfig): onRequestAsyncHookHandler {
  const status = config.authStatus ?? 401;
  const style = config.style ?? 'errors';
  return async function authenticate(request: FastifyRequest, reply: FastifyReply) {
    const raw = request.headers['x-api-key'];
    const key = Array.isArray(raw) ? raw[0] : raw;
    const accountId = key ? ACCOUNT_BY_KEY.get(key.trim()) : undefined;
    if (accountId === undefined)
      return reply.code(status).send(errorBody(style, status, [key ? INVALID_KEY : MISSING_KEY]));
    request.accountId = accountId;
  };
}

/** onRoute hook: routes with `config.auth` get the key check as their first onRequest hook. */
export function addAuthToRoute(route: RouteOptions): void {
  const config = route.config as FastifyContextConfig | undefined;
  if (!config?.auth) return;
  const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
  route.onRequest = [authHookFor(config), ...existing];
}
