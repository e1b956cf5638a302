// 3. invite (default link), 10. invite via a chosen link, 8. cancel, 9. reattempt.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { InviteByLinkRequest, InviteRequest, parseWith, ReattemptRequest } from '../../api/schemas/index.js';
import { cancel, ensureDefaultLink, invite, inviteWindowProblem, reattempt, testUrlPath } from '../invitations.js';
import type { SandboxLink, SandboxTest } from '../model.js';
import { fail, invitationNotOwned, originOf, pathId, testNotOwned } from '../replies.js';
import type { Store } from '../store.js';
import { route, routeOf } from './operation.js';

/** Why an invite on this test/link cannot proceed, or null. */
function inviteBlocker(test: SandboxTest, link: SandboxLink): string | null {
  if (test.testStatus !== 'Active') return `Test ${test.testId} is inactive; candidates cannot be invited to it.`;
  if (link.testLinkStatus !== 'active')
    return `Test link ${link.testLinkId} is inactive; activate it (update test link) before inviting.`;
  return null;
}

export function registerInvitationRoutes(app: FastifyInstance, store: Store): void {
  route(app, 'v3.invite', async (request, reply) => inviteOnDefaultLink(store, request, reply));
  route(app, 'v3.inviteByLink', async (request, reply) => inviteOnLink(store, request, reply));

  // Cancel (spec: body and answer not shown): as production answers, 200
  // {testInvitationId, status: "cancelled"} (lowercase), refusals 400 {statusCode, message}.
  app.route({
    ...routeOf('v3.cancel'),
    handler: async (request, reply) => {
      const id = pathId(request, reply, 'testInvitationId');
      if (id === null) return reply;
      const inv = store.ownedInvitation(request.accountId, id);
      if (!inv) return invitationNotOwned(request, reply, id);
      const r = cancel(store, inv);
      if (!r.ok) return fail(request, reply, 400, r.message);
      await store.flush();
      // what this call did, not a re-read of the state (another request may have moved it since)
      return { testInvitationId: inv.testInvitationId, status: 'cancelled' };
    },
  });

  app.route({
    ...routeOf('v3.reattempt'),
    handler: async (request, reply) => {
      const id = pathId(request, reply, 'testInvitationId');
      if (id === null) return reply;
      const inv = store.ownedInvitation(request.accountId, id);
      if (!inv) return invitationNotOwned(request, reply, id);
      const body = parseWith(ReattemptRequest, request.body ?? {});
      if (!body.ok) return fail(request, reply, 400, body.errors);
      const r = reattempt(store, inv, body.value);
      if (!r.ok) return fail(request, reply, 400, r.message);
      const answer = {
        testInvitationId: r.inv.testInvitationId,
        testUrl: originOf(request) + testUrlPath(r.inv),
        callbackUrlRegistered: r.inv.callbackUrl ?? '',
        redirectUrlRegistered: r.inv.redirectUrl ?? '',
      };
      await store.flush(); // as for cancel: answer with what this request did, built before the write
      return answer;
    },
  });
}

async function inviteOnDefaultLink(store: Store, request: FastifyRequest, reply: FastifyReply) {
  const testId = pathId(request, reply, 'testId');
  if (testId === null) return reply;
  const test = store.ownedTest(request.accountId, testId);
  if (!test) return testNotOwned(reply, testId);
  const body = parseWith(InviteRequest, request.body ?? {});
  if (!body.ok) return fail(request, reply, 400, body.errors);
  if (test.testStatus !== 'Active')
    return fail(request, reply, 400, `Test ${test.testId} is inactive; candidates cannot be invited to it.`);
  const link = ensureDefaultLink(store, test);
  const blocked = inviteBlocker(test, link) ?? inviteWindowProblem(store, link, body.value);
  if (blocked) return fail(request, reply, 400, blocked);
  const { inv } = invite(store, test, link, body.value);
  await store.flush();
  return reply.code(200).send({
    testInvitationId: inv.testInvitationId,
    testUrl: originOf(request) + testUrlPath(inv),
    status: inv.status,
  });
}

async function inviteOnLink(store: Store, request: FastifyRequest, reply: FastifyReply) {
  const testId = pathId(request, reply, 'testId');
  if (testId === null) return reply;
  const test = store.ownedTest(request.accountId, testId);
  if (!test) return testNotOwned(reply, testId);
  const linkId = pathId(request, reply, 'testLinkId');
  if (linkId === null) return reply;
  const link = store.link(linkId);
  if (!link || link.testId !== testId)
    return fail(request, reply, 404, `Test link id ${linkId} was not found on test ${testId}.`);
  const body = parseWith(InviteByLinkRequest, request.body ?? {});
  if (!body.ok) return fail(request, reply, 400, body.errors);
  const blocked = inviteBlocker(test, link);
  if (blocked) return fail(request, reply, 400, blocked);
  const { inv } = invite(store, test, link, body.value);
  await store.flush();
  return reply
    .code(201)
    .send({ testInvitationId: inv.testInvitationId, testUrl: originOf(request) + testUrlPath(inv) });
}
