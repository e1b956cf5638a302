// 15. POST /v3/candidates/testattempts?state=… and 16. POST /v3/callbacks/process.
import type { FastifyInstance } from 'fastify';
import {
  ListAttemptsQuery,
  ListAttemptsRequest,
  MAX_CALLBACK_IDS,
  parseAttemptDateTime,
  parseWith,
  ProcessCallbacksRequest,
} from '../../api/schemas/index.js';
import { queueCallback } from '../callbacks.js';
import { fail } from '../replies.js';
import { ATTEMPT_GROUPS } from '../state-machine.js';
import type { Store } from '../store.js';
import { route } from './operation.js';

export function registerAttemptRoutes(app: FastifyInstance, store: Store): void {
  route(app, 'v3.listAttempts', async (request, reply) => {
    const q = parseWith(ListAttemptsQuery, request.query ?? {});
    if (!q.ok) return fail(request, reply, 400, q.errors);
    const body = parseWith(ListAttemptsRequest, request.body ?? {});
    if (!body.ok) return fail(request, reply, 401, body.errors);
    const from = parseAttemptDateTime(body.value.StartDateTime)!;
    const to = parseAttemptDateTime(body.value.EndDateTime)!;
    if (to < from) return fail(request, reply, 401, 'EndDateTime must not be before StartDateTime.');
    const group = ATTEMPT_GROUPS[q.value.state];
    const testAttempts = [];
    for (const inv of store.invitations({ accountId: request.accountId, statuses: group.statuses })) {
      const at = inv[group.at];
      const t = at ? Date.parse(at) : NaN;
      if (!(t >= from && t <= to)) continue;
      testAttempts.push({
        testInvitationId: inv.testInvitationId,
        testId: inv.testId,
        name: inv.name,
        email: inv.email,
        invitationtype: inv.invitationtype,
        testStatus: inv.status,
      });
    }
    return { result: { testAttempts }, errors: null };
  });

  route(app, 'v3.processCallbacks', async (request, reply) => {
    const raw = (request.body ?? {}) as { testinvitationIds?: unknown };
    if (Array.isArray(raw.testinvitationIds) && raw.testinvitationIds.length > MAX_CALLBACK_IDS)
      return fail(
        request,
        reply,
        400,
        `At most ${MAX_CALLBACK_IDS} testinvitationIds can be processed per call; got ` +
          `${raw.testinvitationIds.length}. Split them into batches of ${MAX_CALLBACK_IDS}.`,
      );
    const body = parseWith(ProcessCallbacksRequest, raw);
    if (!body.ok) return fail(request, reply, 400, body.errors);
    const ids = [...new Set(body.value.testinvitationIds)];
    const unknown = ids.filter((id) => !store.ownedInvitation(request.accountId, id));
    if (unknown.length)
      return fail(request, reply, 401, [
        `Test invitation id does not belong to this account or was not found: ${unknown.join(', ')}`,
        ...unknown.map(String),
      ]);
    const successful: number[] = [];
    const failed: number[] = [];
    for (const id of ids) {
      const entry = queueCallback(store, store.invitation(id)!, 'reprocess');
      (entry ? successful : failed).push(id);
    }
    await store.flush();
    return { result: { testinvitationIds: { successful, failed } }, errors: null };
  });
}
