// v2: create, update, list and get test links. The links are the ones v3 serves: v2's access
// settings are stored as the v3 schedule (accessTime 0 → validityindays, 1 → timebound,
// 2 → slotwise), inviteCandidateOnly as the invitation type, imageProctoring as the proctoring
// mode and testLinkStatus 1/3 as active/inactive (mapping in ../v2-views.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseWith } from '../../api/schemas/parse.js';
import { fromV2DateTime, V2TestLinkInput, V2TestLinkUpdate, v2WindowRule } from '../../api/schemas/v2.js';
import type { ProctoringMode } from '../../api/schemas/v3.js';
import type { SandboxLink } from '../model.js';
import type { Store } from '../store.js';
import { v2fail, v2OwnedLink, v2OwnedTest } from '../v2-replies.js';
import { accessTimeOf, ok, scheduleFromV2, v2LinkView } from '../v2-views.js';
import { route } from './operation.js';

const toV3 = (d: string | null | undefined) => (d ? fromV2DateTime(d) : d);

/** imageProctoring 1 → image; 0 turns image off but leaves a video link (v2 cannot see video) alone. */
function proctoringFrom(flag: 0 | 1 | undefined, current: ProctoringMode): ProctoringMode {
  if (flag === 1) return 'image';
  if (flag === 0 && current === 'image') return 'disabled';
  return current;
}

export function registerV2LinkRoutes(scope: FastifyInstance, store: Store): void {
  route(scope, 'v2.listLinks', async (request, reply) => {
    const test = v2OwnedTest(store, request, reply);
    if (!test) return reply;
    return ok('Test links fetched successfully', { testLinks: store.linksOf(test.testId).map(v2LinkView) });
  });

  route(scope, 'v2.getLink', async (request, reply) => {
    const r = v2OwnedLink(store, request, reply);
    if (!r) return reply;
    return ok('Test link fetched successfully', v2LinkView(r.link));
  });

  route(scope, 'v2.createLink', async (request, reply) => createLink(store, request, reply));
  route(scope, 'v2.updateLink', async (request, reply) => updateLink(store, request, reply));
}

async function createLink(store: Store, request: FastifyRequest, reply: FastifyReply) {
  const test = v2OwnedTest(store, request, reply);
  if (!test) return reply;
  const b = parseWith(V2TestLinkInput, request.body ?? {});
  if (!b.ok) return v2fail(reply, 400, b.errors);
  const v = b.value;
  const account = store.account(test.accountId)!;
  const now = store.nowIso();
  const link: SandboxLink = {
    testLinkId: store.nextId('testLink'),
    testId: test.testId,
    accountId: test.accountId,
    testLinkName: v.testLinkName,
    testLink: store.newToken('tl'),
    testLinkStatus: v.testLinkStatus === 1 ? 'active' : 'inactive',
    invitationType: v.inviteCandidateOnly === 1 ? 'email' : 'open',
    isApiLink: false,
    proctoringMode: v.imageProctoring === 1 ? 'image' : 'disabled',
    stakeholderEmails: v.emailToStakeholder === undefined ? account.ownerEmail : v.emailToStakeholder,
    schedule: scheduleFromV2(
      v.accessTime,
      v.timeZoneId ?? account.defaultTimeZoneId,
      toV3(v.startDateTime),
      toV3(v.endDateTime),
    ),
    createdAt: now,
    updatedAt: now,
  };
  store.addLink(link);
  await store.flush();
  return ok('Test link created successfully', v2LinkView(link));
}

async function updateLink(store: Store, request: FastifyRequest, reply: FastifyReply) {
  const r = v2OwnedLink(store, request, reply);
  if (!r) return reply;
  const b = parseWith(V2TestLinkUpdate, request.body ?? {});
  if (!b.ok) return v2fail(reply, 400, b.errors);
  const link = r.link;
  const current = v2LinkView(link);
  // what is given replaces what is stored; the merged access settings must still hold together
  const merged = { ...current, ...Object.fromEntries(Object.entries(b.value).filter(([, x]) => x !== undefined)) };
  if (merged.accessTime === 0) Object.assign(merged, { startDateTime: null, endDateTime: null });
  const problems: string[] = [];
  v2WindowRule(merged, { addIssue: (i: { message?: string }) => problems.push(i.message ?? 'invalid') } as never);
  if (problems.length) return v2fail(reply, 400, problems);
  const v = b.value;
  Object.assign(link, {
    testLinkName: merged.testLinkName,
    testLinkStatus: merged.testLinkStatus === 1 ? 'active' : 'inactive',
    invitationType: merged.inviteCandidateOnly === 1 ? 'email' : 'open',
    proctoringMode: proctoringFrom(v.imageProctoring, link.proctoringMode),
    stakeholderEmails: merged.emailToStakeholder ?? null,
    updatedAt: store.nowIso(),
  });
  const scheduleTouched =
    v.accessTime !== undefined ||
    v.startDateTime !== undefined ||
    v.endDateTime !== undefined ||
    v.timeZoneId !== undefined;
  if (scheduleTouched || merged.accessTime !== accessTimeOf(link.schedule))
    link.schedule = scheduleFromV2(
      merged.accessTime as 0 | 1 | 2,
      merged.timeZoneId ?? 0,
      toV3(merged.startDateTime),
      toV3(merged.endDateTime),
      link.schedule,
    );
  store.changed({ link });
  await store.flush();
  return ok('Test link updated successfully', v2LinkView(link));
}
