// Builds the fastify app: JSON parsing with the documented error bodies, X-API-KEY auth, the
// request log, the v3 routes and the control API.
import { isServicePath } from '../api/operations/index.js';
import '../util/zod-settings.js'; // zod's English messages for every answer (zod/mini loads none)
import Fastify, { type FastifyInstance, type FastifyRequest, type RouteOptions } from 'fastify';
import { addAuthToRoute } from './auth.js';
import { DeliveryFaults } from './delivery-faults.js';
import { FaultInjector, registerFaults } from './faults.js';
import { Quirks, registerQuirkRoutes, registerQuirks } from './quirks.js';
import { RateLimiter } from './rate-limit.js';
import { bodyForLog } from './redact.js';
import { fail } from './replies.js';
import { registerAttemptRoutes } from './routes/attempts.js';
import { registerControlRoutes } from './routes/control.js';
import { registerRateLimit } from './routes/rate-limit.js';
import { registerFaultRoutes } from './routes/faults.js';
import { registerInvitationRoutes } from './routes/invitations.js';
import { registerLinkRoutes } from './routes/links.js';
import { registerReportRoutes } from './routes/reports.js';
import { registerSettingsRoutes } from './routes/settings.js';
import { registerTakeRoutes } from './routes/take.js';
import { registerTestRoutes } from './routes/tests.js';
import { registerTimeZoneRoutes } from './routes/timezones.js';
import { registerV2Routes } from './routes/v2.js';
import { ReportPdfs } from './report-pdfs.js';
import type { Store } from './store.js';

export const BODY_LIMIT = 1024 * 1024;

export interface ServerOptions {
  logRequests?: boolean;
  /** Injected faults (errors, resets, latency), changeable at run time; see faults.ts. */
  faults?: FaultInjector;
  /** Callback delivery faults (drop, 5xx, hang), shown and changed at /_sandbox/delivery-faults. */
  deliveryFaults?: DeliveryFaults;
  /** Quirks mode: the form of each answer varies (quirks.ts), changeable via /_sandbox/quirks. */
  quirks?: Quirks;
  /** The rate limit on service requests (a token bucket per key), changeable via /_sandbox/rate-limit. */
  rateLimit?: RateLimiter;
  /** Where request log lines go when logRequests is on (default: stderr). */
  log?: (line: string) => void;
  /** Told of every route registered (tests compare them with the OpenAPI operation table). */
  onRoute?: (route: RouteOptions) => void;
}

/** Requests that are part of the emulated service (logged; the control API and pages are not). */
const isServiceRequest = isServicePath;

export function buildServer(store: Store, opts: ServerOptions = {}): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT, return503OnClosing: false });
  parseEveryBodyAsJson(app);
  app.decorateRequest('accountId', 0);
  app.addHook('onRoute', addAuthToRoute); // before any route is registered
  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
  const faults = opts.faults ?? new FaultInjector();
  const quirks = opts.quirks ?? new Quirks();
  registerQuirks(app, quirks); // before the faults: a truncated answer is cut from the rewritten body
  registerRateLimit(app, opts.rateLimit ?? new RateLimiter(), faults); // a refused request meets no fault
  registerFaults(app, faults);
  registerErrorAnswers(app);
  recordRequests(app, store, opts);

  registerTestRoutes(app, store);
  registerTimeZoneRoutes(app);
  registerLinkRoutes(app, store);
  registerInvitationRoutes(app, store);
  // report PDFs: rendered in the background when an attempt finishes, served from a cache
  const pdfs = new ReportPdfs(store);
  store.onReportReady = (inv) => pdfs.schedule(inv);
  app.addHook('onClose', async () => {
    pdfs.close();
    await pdfs.idle();
  });
  registerReportRoutes(app, store, pdfs);
  registerAttemptRoutes(app, store);
  registerSettingsRoutes(app, store);
  registerControlRoutes(app, store, pdfs);
  registerFaultRoutes(app, faults, opts.deliveryFaults ?? new DeliveryFaults());
  registerQuirkRoutes(app, quirks);
  registerTakeRoutes(app, store);
  registerV2Routes(app, store, pdfs);
  return app;
}

/**
 * Every body is read as JSON whatever its content type (curl -d sends form encoding);
 * an empty body is "no body". Malformed JSON → 400 {errors:[…]}.
 */
function parseEveryBodyAsJson(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      done(
        Object.assign(new Error(`Malformed JSON body: ${(err as Error).message}`), {
          statusCode: 400,
          code: 'SANDBOX_BAD_JSON',
        }),
        undefined,
      );
    }
  });
}

/** Too large, malformed, thrown and unknown: each answered in the documented error form. */
function registerErrorAnswers(app: FastifyInstance): void {
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413)
      return reply.code(413).send({ errors: [`Request body is larger than ${BODY_LIMIT / 1024 / 1024} MB.`] });
    if (err.code === 'SANDBOX_BAD_JSON') return reply.code(400).send({ errors: [err.message] });
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    return fail(request, reply, status, status === 500 ? `Sandbox internal error: ${err.message}` : err.message);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ errors: [`No such endpoint: ${request.method} ${request.url.split('?')[0]}`] }),
  );
}

/** Service requests go to the store's request log (secrets redacted) and, when asked, to `opts.log`. */
function recordRequests(app: FastifyInstance, store: Store, opts: ServerOptions): void {
  const log = opts.log ?? ((line: string) => process.stderr.write(line + '\n'));
  app.addHook('onResponse', async (request: FastifyRequest, reply) => {
    if (!isServiceRequest(request.url)) return;
    store.recordRequest({
      at: store.nowIso(),
      method: request.method,
      path: redactQuery(request.url),
      status: reply.statusCode,
      accountId: request.accountId || null,
      body: bodyForLog(request.body),
    });
    if (opts.logRequests)
      log(`${request.method} ${redactQuery(request.url)} → ${reply.statusCode} (${reply.elapsedTime.toFixed(1)} ms)`);
  });
}

const QUERY_SECRET = /[?&](?:api[_-]?key|key|token)=/i;

function redactQuery(url: string): string {
  if (!QUERY_SECRET.test(url)) return url;
  return url.replace(/([?&](?:api[_-]?key|key|token)=)[^&]*/gi, '$1[redacted]');
}
