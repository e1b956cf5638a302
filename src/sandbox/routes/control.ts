// The control API under /_sandbox/: no key, loopback clients only. It drives what a real
// service would do on its own (candidates taking tests, time passing) and shows what the
// sandbox saw and "sent". Errors are {errors:[…]}; a move the state machine forbids is 409.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import { IdParam, parseWith } from '../../api/schemas/index.js';
import { parseDuration } from '../clock.js';
import { simulate, testUrlPath } from '../invitations.js';
import type { SandboxInvitation } from '../model.js';
import { openApiText } from '../openapi/index.js';
import { originOf } from '../replies.js';
import type { ReportPdfs } from '../report-pdfs.js';
import { buildReport, candidatePoints, testPoints } from '../scoring.js';
import { ACCOUNT_BY_KEY } from '../seed.js';
import { hasResult, SIMULATE_TARGETS } from '../state-machine.js';
import { resetState, stateDoc } from '../state-doc.js';
import type { Store } from '../store.js';
import { manualPath } from '../../util/manuals.js';

const LATEST_CLOCK_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

const SimulateBody = z.object({
  to: z.enum(SIMULATE_TARGETS as [string, ...string[]], { error: `to must be one of ${SIMULATE_TARGETS.join(', ')}` }),
  score: z.optional(z.number().check(z.minimum(0), z.maximum(100))),
  sectionScores: z.optional(z.array(z.number().check(z.minimum(0), z.maximum(100)))),
});
const ClockBody = z
  .strictObject({
    advance: z.optional(z.union([z.string(), z.number()])),
    set: z.optional(z.iso.datetime({ offset: true })),
    freeze: z.optional(z.boolean()),
  })
  .check(z.refine((b) => b.advance !== undefined || b.set !== undefined || b.freeze !== undefined));

export function isLoopback(address: string | undefined): boolean {
  return !!address && (address.startsWith('127.') || address === '::1' || address.startsWith('::ffff:127.'));
}

/** Every control route (this one, faults, delivery faults, quirks) answers loopback clients only. */
export function answerLoopbackOnly(c: FastifyInstance): void {
  c.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isLoopback(request.socket.remoteAddress))
      return bad(reply, 403, 'The sandbox control API answers loopback clients only.');
  });
}

const bad = (reply: FastifyReply, status: number, message: string | string[]) =>
  reply.code(status).send({ errors: Array.isArray(message) ? message : [message] });

export function invitationView(store: Store, inv: SandboxInvitation, origin: string) {
  const test = store.test(inv.testId)!;
  return {
    testInvitationId: inv.testInvitationId,
    accountId: inv.accountId,
    accountName: store.account(inv.accountId)?.name,
    testId: inv.testId,
    testName: test.testName,
    testLinkId: inv.testLinkId,
    email: inv.email,
    name: inv.name,
    status: inv.status,
    invitationtype: inv.invitationtype,
    testUrl: origin + testUrlPath(inv),
    accessStart: inv.accessStart,
    accessEnd: inv.accessEnd,
    timeZoneId: inv.timeZoneId,
    callbackUrl: inv.callbackUrl,
    redirectUrl: inv.redirectUrl,
    stakeholderEmails: inv.stakeholderEmails,
    proctoringMode: inv.proctoringMode,
    reattemptOf: inv.reattemptOf,
    createdAt: inv.createdAt,
    startedAt: inv.startedAt,
    finishedAt: inv.finishedAt,
    cancelledAt: inv.cancelledAt,
    expiredAt: inv.expiredAt,
    scorePercentage:
      hasResult(inv.status) && inv.result ? Math.round((candidatePoints(inv.result) / testPoints(test)) * 100) : null,
  };
}

export function registerControlRoutes(app: FastifyInstance, store: Store, pdfs: ReportPdfs): void {
  app.register(
    async (c) => {
      answerLoopbackOnly(c);
      registerClockRoutes(c, store);
      registerRecordRoutes(c, store, pdfs);
      registerInvitationControl(c, store);
    },
    { prefix: '/_sandbox' },
  );
}

const clockView = (store: Store) => ({ now: store.nowIso(), offsetMs: store.clock.offset, frozen: store.clock.frozen });

/** The sandbox's own overview, its clock and the reset. */
function registerClockRoutes(c: FastifyInstance, store: Store): void {
  c.get('/', async (request) => ({
    service: 'assess sandbox',
    baseUrl: originOf(request),
    now: store.nowIso(),
    accounts: store.accounts().map((a) => ({
      ...a,
      key: [...ACCOUNT_BY_KEY].find(([, id]) => id === a.accountId)?.[0],
    })),
    docs: manualPath('sandbox.md'),
  }));

  c.get('/clock', async () => clockView(store));
  c.post('/clock', async (request, reply) => moveClock(store, request, reply));

  c.post('/reset', async () => {
    resetState(store);
    await store.flush();
    return { reset: true, ...clockView(store), tests: store.count('tests'), invitations: store.count('invitations') };
  });
}

async function moveClock(store: Store, request: FastifyRequest, reply: FastifyReply) {
  const body = ClockBody.safeParse(request.body ?? {});
  if (!body.success)
    return bad(
      reply,
      400,
      'Send {"advance": "3d" | "12h" | "30m" | "45s" | seconds} and/or {"set": "<ISO 8601 date-time>"} and/or ' +
        '{"freeze": true|false}.',
    );
  const { advance, set, freeze } = body.data;
  const ms = advance === undefined ? 0 : parseDuration(advance);
  if (ms === null)
    return bad(
      reply,
      400,
      `advance must be a duration like 3d, 12h, 30m, 45s or a number of seconds; got '${advance}'.`,
    );
  // every timestamp the sandbox writes has a four-digit year, as the service's do
  const target = (set !== undefined ? Date.parse(set) : store.clock.now()) + ms;
  if (!(target >= 0 && target <= LATEST_CLOCK_MS))
    return bad(reply, 400, 'the clock would leave the years 1970 to 9999; advance or set it less far.');
  if (freeze !== undefined) store.clock.freeze(freeze);
  if (set !== undefined) store.clock.set(Date.parse(set));
  store.clock.advance(ms);
  store.changed('clock');
  const expired = store.sweepExpiry();
  await store.flush();
  return { ...clockView(store), expired };
}

/** What the sandbox saw and "sent": state, the OpenAPI document, requests, outbox, deliveries, callbacks. */
function registerRecordRoutes(c: FastifyInstance, store: Store, pdfs: ReportPdfs): void {
  c.get('/state', async () => stateDoc(store));
  // the OpenAPI 3.1 document of the v3/v2 operations served here (built from the zod wire schemas)
  c.get('/openapi.json', async (request, reply) =>
    reply.type('application/json; charset=utf-8').send(openApiText(originOf(request))),
  );
  // report PDFs: how many finished attempts still wait for their background render
  c.get('/reports', async () => ({
    pdfQueue: pdfs.queued,
    pdfRendering: pdfs.busy,
    pdfsCached: pdfs.size.entries,
    pdfRenders: pdfs.renders,
  }));
  c.get('/requests', async (request) => {
    const limit = Number((request.query as { limit?: string }).limit ?? 0);
    return { requests: limit > 0 ? store.requests(limit) : store.requests() };
  });
  c.delete('/requests', async () => {
    store.clearRequests();
    await store.flush();
    return { requests: [] };
  });
  // ?invitation=ID narrows the outbox and the callback deliveries to one invitation
  const forInvitation = (request: FastifyRequest) =>
    Number((request.query as { invitation?: string }).invitation ?? 0) || undefined;
  c.get('/outbox', async (request) => ({ emails: store.outbox(forInvitation(request)) }));
  c.get('/deliveries', async (request) => ({ deliveries: store.deliveries(forInvitation(request)) }));
  c.get('/callbacks', async () => ({ callbacks: store.callbacks() }));
}

/** Invitations as the sandbox sees them, and the candidate's moves (start, finish, ...) simulated on one. */
function registerInvitationControl(c: FastifyInstance, store: Store): void {
  c.get('/invitations', async (request) => {
    const q = request.query as { accountId?: string; status?: string; email?: string };
    const list = store
      .invitations()
      .filter(
        (i) =>
          (!q.accountId || i.accountId === Number(q.accountId)) &&
          (!q.status || i.status.toLowerCase() === q.status.toLowerCase()) &&
          (!q.email || i.email.toLowerCase() === q.email.toLowerCase()),
      );
    return { invitations: list.map((i) => invitationView(store, i, originOf(request))) };
  });

  c.get('/invitations/:id', async (request, reply) => {
    const inv = findInvitation(store, request, reply);
    return inv ? invitationView(store, inv, originOf(request)) : reply;
  });

  c.post('/invitations/:id/simulate', async (request, reply) => {
    const inv = findInvitation(store, request, reply);
    return inv ? simulateMove(store, inv, request, reply) : reply;
  });
}

function findInvitation(store: Store, request: FastifyRequest, reply: FastifyReply) {
  const raw = (request.params as { id: string }).id;
  const id = IdParam.safeParse(raw);
  const inv = id.success ? store.invitation(id.data) : undefined;
  if (!inv) return (void bad(reply, 404, `No invitation with id '${raw}'.`), undefined);
  return inv;
}

async function simulateMove(store: Store, inv: SandboxInvitation, request: FastifyRequest, reply: FastifyReply) {
  const body = parseWith(SimulateBody, request.body ?? {});
  if (!body.ok) return bad(reply, 400, body.errors);
  const { to, score, sectionScores } = body.value;
  // one score per section: extras would be dropped and missing ones made up without a word
  const sections = store.test(inv.testId)!.sections.length;
  if (sectionScores && sectionScores.length !== sections) {
    const n = (k: number, what: string) => `${k} ${what}${k === 1 ? '' : 's'}`;
    return bad(
      reply,
      400,
      `sectionScores: ${n(sectionScores.length, 'score')} given, but test ` +
        `${inv.testId} has ${n(sections, 'section')}; give one score (0-100) per section, in section order.`,
    );
  }
  const queuedBefore = store.lastEventId();
  const r = simulate(store, inv, to as (typeof SIMULATE_TARGETS)[number], {
    percent: score,
    sectionPercents: sectionScores,
  });
  if (!r.ok) return bad(reply, 409, r.message);
  await store.flush();
  const origin = originOf(request);
  const test = store.test(inv.testId)!;
  return {
    invitation: invitationView(store, inv, origin),
    report: hasResult(inv.status)
      ? buildReport(test, inv, 3, `${origin}/v3/reports/${inv.testInvitationId}/pdf`)
      : null,
    // where the candidate lands after the test (null: no redirect URL registered)
    redirectTo: hasResult(inv.status) ? inv.redirectUrl : null,
    // the callbacks this move queued (delivered in the background: GET /_sandbox/deliveries)
    callbacks: store.callbacks(queuedBefore).map((e) => ({ deliveryId: e.eventId, event: e.status, url: e.url })),
  };
}
