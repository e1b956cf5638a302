// v2: register (default link) and register via a test link. Both go through the same invite
// logic as v3 (one attempt per candidate per link, the spec's invite table), and "posting again
// for the same candidate updates fullName, callbackURL and redirectURL of the existing record" —
// whatever its state, since v2 documents no exception.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseWith } from '../../api/schemas/parse.js';
import { V2RegisterRequest } from '../../api/schemas/v2.js';
import { ensureDefaultLink, invite, testUrlPath } from '../invitations.js';
import type { SandboxLink, SandboxTest } from '../model.js';
import { originOf } from '../replies.js';
import type { Store } from '../store.js';
import { v2fail, v2OwnedLink, v2OwnedTest } from '../v2-replies.js';
import { ok, testAccessTimeText } from '../v2-views.js';
import { route } from './operation.js';

function blocker(test: SandboxTest, link: SandboxLink): string | null {
  if (test.testStatus !== 'Active') return `Test ${test.testId} is inactive; candidates cannot be registered for it.`;
  if (link.testLinkStatus !== 'active')
    return `Test link ${link.testLinkId} is inactive (testLinkStatus 3); activate it before registering candidates.`;
  return null;
}

function register(store: Store, test: SandboxTest, link: SandboxLink, body: V2RegisterRequest) {
  const callbackUrl = body.callbackURL ?? body.callbackUrl;
  const redirectUrl = body.redirectURL ?? body.redirectUrl;
  const { inv, created } = invite(store, test, link, {
    email: body.emailId,
    name: body.fullName,
    callbackURL: callbackUrl,
    redirectURL: redirectUrl,
    disableMandatoryFields: 0,
    hideInstruction: 0,
    sendEmail: 'no',
  });
  if (created) inv.apiVersion = 'v2'; // its callbacks carry the v2 fields
  inv.name = body.fullName;
  if (callbackUrl) inv.callbackUrl = callbackUrl;
  if (redirectUrl) inv.redirectUrl = redirectUrl;
  inv.updatedAt = store.nowIso();
  store.changed({ invitation: inv });
  return inv;
}

export function registerV2RegisterRoutes(scope: FastifyInstance, store: Store): void {
  const body = (request: FastifyRequest) => parseWith(V2RegisterRequest, request.body ?? {});

  route(scope, 'v2.register', async (request, reply) => {
    const test = v2OwnedTest(store, request, reply);
    if (!test) return reply;
    const b = body(request);
    if (!b.ok) return v2fail(reply, 400, b.errors);
    if (test.testStatus !== 'Active')
      return v2fail(reply, 400, `Test ${test.testId} is inactive; candidates cannot be registered for it.`);
    const link = ensureDefaultLink(store, test);
    const blocked = blocker(test, link);
    if (blocked) return v2fail(reply, 400, blocked);
    const inv = register(store, test, link, b.value);
    await store.flush();
    return ok('Candidate registered successfully', {
      testInvitationId: inv.testInvitationId,
      takeTestURL: originOf(request) + testUrlPath(inv),
    });
  });

  route(scope, 'v2.registerByLink', async (request, reply) => {
    const r = v2OwnedLink(store, request, reply);
    if (!r) return reply;
    const b = body(request);
    if (!b.ok) return v2fail(reply, 400, b.errors);
    const blocked = blocker(r.test, r.link);
    if (blocked) return v2fail(reply, 400, blocked);
    const inv = register(store, r.test, r.link, b.value);
    await store.flush();
    return ok('Candidate registered successfully', {
      testInvitationId: inv.testInvitationId,
      testUrl: originOf(request) + testUrlPath(inv),
      testAccessTime: testAccessTimeText(r.link, inv),
    });
  });
}
