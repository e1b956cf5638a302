// 6. list, 7. get, 11. create, 12. update test links.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseWith, TestLinkInput, TestLinkUpdateInput } from '../../api/schemas/index.js';
import type { SandboxLink } from '../model.js';
import { fail, pathId, testNotOwned } from '../replies.js';
import type { Store } from '../store.js';
import { testLinkView } from '../views.js';
import { route, routeOf } from './operation.js';

export function registerLinkRoutes(app: FastifyInstance, store: Store): void {
  route(app, 'v3.listLinks', async (request, reply) => {
    const r = resolve(store, request, reply, false);
    if (!r) return reply;
    return { testLinks: store.linksOf(r.test.testId).map(testLinkView) };
  });

  app.route({
    ...routeOf('v3.getLink'),
    handler: async (request, reply) => {
      const r = resolve(store, request, reply, true);
      if (!r) return reply;
      return testLinkView(r.link!);
    },
  });

  route(app, 'v3.createLink', async (request, reply) => createLink(store, request, reply));
  route(app, 'v3.updateLink', async (request, reply) => updateLink(store, request, reply));
}

/** The account's test and (optionally) one of its links, or an error already sent. */
function resolve(store: Store, request: FastifyRequest, reply: FastifyReply, withLink: boolean) {
  const testId = pathId(request, reply, 'testId');
  if (testId === null) return null;
  const test = store.ownedTest(request.accountId, testId);
  if (!test) return (void testNotOwned(reply, testId), null);
  if (!withLink) return { test, link: undefined };
  const linkId = pathId(request, reply, 'testLinkId');
  if (linkId === null) return null;
  const link = store.link(linkId);
  if (!link || link.testId !== testId)
    return (void fail(request, reply, 404, `Test link id ${linkId} was not found on test ${testId}.`), null);
  return { test, link };
}

async function createLink(store: Store, request: FastifyRequest, reply: FastifyReply) {
  const r = resolve(store, request, reply, false);
  if (!r) return reply;
  const body = parseWith(TestLinkInput, request.body ?? {});
  if (!body.ok) return fail(request, reply, 400, body.errors);
  const v = body.value;
  if (v.testId !== undefined && v.testId !== r.test.testId)
    return fail(request, reply, 400, `testId in the body (${v.testId}) does not match the path (${r.test.testId}).`);
  const now = store.nowIso();
  const link: SandboxLink = {
    testLinkId: store.nextId('testLink'),
    testId: r.test.testId,
    accountId: r.test.accountId,
    testLinkName: v.testLinkName,
    testLink: store.newToken('tl'),
    testLinkStatus: v.testLinkStatus,
    invitationType: v.invitationType,
    isApiLink: v.isApiLink ?? false,
    proctoringMode: v.proctoringSettings.proctoringMode,
    stakeholderEmails: v.stakeholderEmails ?? null,
    schedule: v.invitationSchedule,
    createdAt: now,
    updatedAt: now,
  };
  store.addLink(link);
  await store.flush();
  return testLinkView(link);
}

async function updateLink(store: Store, request: FastifyRequest, reply: FastifyReply) {
  const r = resolve(store, request, reply, true);
  if (!r) return reply;
  const patch = parseWith(TestLinkUpdateInput, request.body ?? {});
  if (!patch.ok) return fail(request, reply, 400, patch.errors);
  const link = r.link!;
  if (patch.value.testId !== undefined && patch.value.testId !== link.testId)
    return fail(
      request,
      reply,
      400,
      `testId in the body (${patch.value.testId}) does not match the path (${link.testId}).`,
    );
  // merge what was given over what is stored, then validate the whole link again
  const current = testLinkView(link);
  const merged = parseWith(TestLinkInput, {
    ...current,
    ...stripUndefined(patch.value),
    proctoringSettings: patch.value.proctoringSettings ?? current.proctoringSettings,
    invitationSchedule: patch.value.invitationSchedule ?? current.invitationSchedule,
  });
  if (!merged.ok) return fail(request, reply, 400, merged.errors);
  const v = merged.value;
  Object.assign(link, {
    testLinkName: v.testLinkName,
    testLinkStatus: v.testLinkStatus,
    invitationType: v.invitationType,
    isApiLink: v.isApiLink ?? link.isApiLink,
    proctoringMode: v.proctoringSettings.proctoringMode,
    stakeholderEmails: v.stakeholderEmails ?? null,
    schedule: v.invitationSchedule,
    updatedAt: store.nowIso(),
  });
  store.changed({ link });
  await store.flush();
  return testLinkView(link);
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
