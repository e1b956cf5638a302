// A service operation's route, from its row of the operation table (src/api/operations/): the
// method, the path (fastify's `:name` form; a v2 path inside the v2 scope's prefix), the key
// check and its status, and the error style. The handler is the route file's own.
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { API_PREFIX, OPERATIONS, type OperationId } from '../../api/operations/index.js';

export function routeOf(id: OperationId) {
  const op = OPERATIONS[id];
  if (op.style === 'v2')
    return { method: op.method, url: op.path.slice(API_PREFIX.v2.length).replace(/\{(\w+)\}/g, ':$1') };
  const url = op.path.replace(/\{(\w+)\}/g, ':$1');
  const authStatus = 'authStatus' in op ? op.authStatus : undefined;
  return { method: op.method, url, config: { auth: true, style: op.style, ...(authStatus ? { authStatus } : {}) } };
}

/** Registers the operation's route with its handler. */
export function route(app: FastifyInstance, id: OperationId, handler: RouteHandlerMethod): void {
  app.route({ ...routeOf(id), handler });
}
