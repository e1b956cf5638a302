// Seed data: two accounts with fixed keys, tests with sections and skills (active and
// inactive), links of every schedule type and proctoring mode, settings for every test, and a
// few invitations in each state so reports and attempt lists have something to show.
// Dates are relative to the moment of seeding (the sandbox clock's "now").
import type { TestSettings } from '../api/schemas/v3.js';
import type {
  Account,
  SandboxInvitation,
  SandboxLink,
  SandboxStateDoc,
  SandboxTest,
  Schedule,
  Section,
} from './model.js';
import { scoreAttempt } from './scoring.js';

/** Fixed API keys of the two seed accounts (sandbox only; they grant nothing elsewhere). */
export const SEED_KEYS = ['sk_sandbox_acme_7Hq2Lm9Xw4Tc', 'sk_sandbox_globex_3Rt8Vn6Kp1Zd'] as const;

export const SEED_ACCOUNTS: Account[] = [
  { accountId: 1, name: 'Acme Hiring', ownerEmail: 'hr@acme.example', defaultTimeZoneId: 1 },
  { accountId: 2, name: 'Globex Corp', ownerEmail: 'talent@globex.example', defaultTimeZoneId: 2 },
];

/** API key → account id. The key itself is never written to state or logs. */
export const ACCOUNT_BY_KEY: ReadonlyMap<string, number> = new Map([
  [SEED_KEYS[0], 1],
  [SEED_KEYS[1], 2],
]);

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

type SkillSpec = [qbId: number, name: string, questions: number, pointsPerQuestion: number];
function section(
  sectionId: number,
  sectionName: string,
  type: Section['sectionType'],
  duration: number,
  skills: SkillSpec[],
): Section {
  return {
    sectionId,
    sectionName,
    sectionType: type,
    duration,
    skills: skills.map(([qbId, qbName, questions, pointsPerQuestion]) => ({
      qbId,
      qbName,
      questions,
      pointsPerQuestion,
    })),
  };
}

function test(testId: number, accountId: number, testName: string, active: boolean, sections: Section[]): SandboxTest {
  return {
    testId,
    accountId,
    testName,
    accessKey: `ak${testId}x${(testId * 7919).toString(36)}`,
    testStatus: active ? 'Active' : 'Inactive',
    sections,
    defaultTestLinkId: null,
  };
}

const TESTS: SandboxTest[] = [
  test(1001, 1, 'Java Backend Developer', true, [
    section(11, 'Core Java', 'general', 30, [
      [111, 'OOP', 8, 5],
      [112, 'Collections', 6, 5],
    ]),
    section(12, 'Coding', 'coding', 45, [
      [121, 'Algorithms', 2, 20],
      [122, 'Debugging', 1, 20],
    ]),
  ]),
  test(1002, 1, 'Frontend Developer (React)', true, [
    section(21, 'JavaScript', 'general', 20, [
      [211, 'Closures', 6, 5],
      [212, 'Async', 6, 5],
    ]),
    section(22, 'React', 'general', 20, [
      [221, 'Hooks', 5, 4],
      [222, 'State management', 5, 4],
    ]),
    section(23, 'UI Coding', 'coding', 40, [[231, 'Component task', 1, 30]]),
  ]),
  test(1003, 1, 'Data Analyst (SQL)', true, [
    section(31, 'SQL', 'general', 30, [
      [311, 'Joins', 10, 4],
      [312, 'Aggregation', 10, 4],
    ]),
    section(32, 'Statistics', 'general', 15, [[321, 'Descriptive statistics', 5, 4]]),
  ]),
  test(1004, 1, 'Legacy PHP Screening', false, [section(41, 'PHP', 'general', 25, [[411, 'PHP basics', 10, 10]])]),
  test(2001, 2, 'Python Developer', true, [
    section(51, 'Python', 'general', 30, [
      [511, 'Syntax', 10, 5],
      [512, 'Standard library', 10, 5],
    ]),
    section(52, 'Coding', 'coding', 40, [[521, 'Problem solving', 2, 25]]),
  ]),
  test(2002, 2, 'DevOps Fundamentals', true, [
    section(61, 'Linux', 'general', 20, [[611, 'Shell', 8, 5]]),
    section(62, 'Cloud', 'general', 25, [
      [621, 'AWS', 8, 5],
      [622, 'Containers', 4, 5],
    ]),
  ]),
  test(2003, 2, 'Sales Aptitude', false, [
    section(71, 'Aptitude', 'general', 30, [
      [711, 'Numerical', 10, 5],
      [712, 'Verbal', 10, 5],
    ]),
  ]),
];

function settingsFor(t: SandboxTest, i: number): TestSettings {
  const copyPaste = (i % 3 === 0 ? 1 : 0) as 0 | 1;
  return {
    testSettings: {
      testName: t.testName,
      testAliasName: t.testName.replace(/\W+/g, '-').toLowerCase(),
      typeOfTest: 1,
      practiceTest: (i % 4 === 3 ? 1 : 0) as 0 | 1,
    },
    questionSettings: { randomQuestions: (i % 2) as 0 | 1, randomAnswers: 0, showQuestionScore: 1 },
    displayMessageSettings: { sectionEndPopup: 1, sectionTimeLeftAlert: 1, candidateFeedback: (i % 2) as 0 | 1 },
    emailSettings: { sendTestReportEmailToCandidate: 0 },
    imageProctoringSettings: { terminateTestOnImageViolation: 0, terminateTestAfterViolationCount: 0 },
    windowViolationSettings: {
      copyPaste,
      displayViolationSettings: {
        displayViolationPopUp: copyPaste ? 0 : 1,
        terminateTestOnWindowViolation: 0,
        terminateTestAfterViolationCount: 3,
      },
    },
  };
}

export function buildSeedState(nowMs: number, clockOffsetMs = 0): SandboxStateDoc {
  const tests: SandboxTest[] = structuredClone(TESTS);
  const links = seedLinks(nowMs);
  for (const l of links) if (l.isApiLink) tests.find((t) => t.testId === l.testId)!.defaultTestLinkId = l.testLinkId;
  return {
    clockOffsetMs,
    clockFrozenAtMs: null,
    nextIds: { testLink: 5100, invitation: 900100, event: 1, email: 1 },
    accounts: structuredClone(SEED_ACCOUNTS),
    tests,
    links,
    settings: tests.map((t, i) => ({ testId: t.testId, settings: settingsFor(t, i) })),
    invitations: seedInvitations(nowMs, tests, links),
    callbackQueue: [],
    outbox: [],
    requests: [],
    deliveries: [],
  };
}

/** Links of every schedule type and proctoring mode, their schedules relative to `nowMs`. */
function seedLinks(nowMs: number): SandboxLink[] {
  const now = iso(nowMs);
  const validity = (days: number, tz = 1): Schedule => ({
    scheduleType: 'validityindays',
    scheduleDetails: { invitationValidityInDays: days, timeZoneId: tz },
  });
  const window = (type: 'timebound' | 'slotwise', fromDays: number, toDays: number, tz = 1): Schedule => ({
    scheduleType: type,
    scheduleDetails: {
      startDateTime: iso(nowMs + fromDays * DAY),
      endDateTime: iso(nowMs + toDays * DAY),
      timeZoneId: tz,
    },
  });
  const link = (
    testLinkId: number,
    testId: number,
    name: string,
    schedule: Schedule,
    extra: Partial<SandboxLink> = {},
  ): SandboxLink => ({
    testLinkId,
    testId,
    accountId: testId < 2000 ? 1 : 2,
    testLinkName: name,
    testLink: `tl-${testLinkId}-${(testLinkId * 104729).toString(36)}`,
    testLinkStatus: 'active',
    invitationType: 'email',
    isApiLink: false,
    proctoringMode: 'disabled',
    stakeholderEmails: null,
    schedule,
    createdAt: now,
    updatedAt: now,
    ...extra,
  });
  return [
    link(5001, 1001, 'Default API link', validity(7), {
      isApiLink: true,
      stakeholderEmails: 'hiring-manager@acme.example',
    }),
    link(5002, 1001, 'Campus drive (timebound)', window('timebound', -1, 30), { proctoringMode: 'image' }),
    link(5003, 1001, 'Evening slots (slotwise)', window('slotwise', 0, 14), {
      proctoringMode: 'video',
      stakeholderEmails: 'lead@acme.example,hr@acme.example',
    }),
    link(5004, 1001, 'Old open link', validity(30), { invitationType: 'open', testLinkStatus: 'inactive' }),
    link(5005, 1002, 'Referral open link', validity(30), { invitationType: 'open', proctoringMode: 'image' }),
    link(5006, 1003, 'Default API link', validity(14), { isApiLink: true, proctoringMode: 'video' }),
    link(5007, 2001, 'Default API link', validity(7, 2), { isApiLink: true }),
    link(5008, 2001, 'Hackathon (timebound)', window('timebound', 2, 9, 2), { proctoringMode: 'video' }),
    link(5009, 2001, 'Office hours (slotwise)', window('slotwise', -2, 20, 2), {
      proctoringMode: 'image',
      invitationType: 'open',
    }),
    link(5010, 2002, 'Open practice link', validity(10, 2), { invitationType: 'open' }),
    link(5011, 2003, 'Default API link', validity(5, 2), { isApiLink: true, testLinkStatus: 'inactive' }),
  ];
}

/** A few invitations in each state, so reports and attempt lists have something to show. */
function seedInvitations(nowMs: number, tests: SandboxTest[], links: SandboxLink[]): SandboxInvitation[] {
  const invite = (...spec: SeedInvite) => seedInvitation(nowMs, tests, links, spec);
  // The finished attempts registered the local listener's address (`assess callbacks listen
  // --port 8787`), so `assess callbacks process 900001` has something to re-send; with nothing
  // listening the delivery fails at once and shows in `assess sandbox deliveries`.
  const hook = { callbackUrl: 'http://127.0.0.1:8787/' };
  return [
    invite(900001, 5001, 'alice@example.com', 'Alice Archer', 'Complete', 2, {
      ...hook,
      result: scoreAttempt(tests[0], 900001, { percent: 82 }),
    }),
    invite(900002, 5001, 'bob@example.com', 'Bob Baker', 'Test Left', 3, { ...hook, invitationtype: 'app' }),
    invite(900003, 5001, 'carol@example.com', 'Carol Chen', 'Terminated', 4, hook),
    invite(900004, 5001, 'dave@example.com', 'Dave Diaz', 'Pending', 0),
    invite(900005, 5001, 'erin@example.com', 'Erin Evans', 'In Progress', 0),
    invite(900006, 5002, 'frank@example.com', 'Frank Fox', 'Cancelled', 5),
    invite(900007, 5001, 'grace@example.com', 'Grace Green', 'Expired', 1, { invitationtype: 'app' }),
    invite(900008, 5007, 'heidi@example.com', 'Heidi Hart', 'Complete', 1, {
      result: scoreAttempt(tests[4], 900008, { percent: 64 }),
    }),
    invite(900009, 5007, 'ivan@example.com', 'Ivan Ivanov', 'Pending', 0),
  ];
}

type SeedInvite = [
  id: number,
  linkId: number,
  email: string,
  name: string,
  status: SandboxInvitation['status'],
  daysAgo: number,
  extra?: Partial<SandboxInvitation>,
];

/** One seed invitation on link `linkId`, last touched `daysAgo` days before `nowMs`. */
function seedInvitation(
  nowMs: number,
  tests: SandboxTest[],
  links: SandboxLink[],
  [id, linkId, email, name, status, daysAgo, extra = {}]: SeedInvite,
): SandboxInvitation {
  const l = links.find((x) => x.testLinkId === linkId)!;
  const t = tests.find((x) => x.testId === l.testId)!;
  const created = nowMs - (daysAgo + 1) * DAY;
  const at = iso(nowMs - daysAgo * DAY);
  const started =
    status === 'Pending' || status === 'Cancelled' || status === 'Expired'
      ? null
      : iso(nowMs - daysAgo * DAY - 3_600_000);
  const finished = ['Complete', 'Test Left', 'Terminated'].includes(status);
  return {
    testInvitationId: id,
    accountId: l.accountId,
    testId: t.testId,
    testLinkId: linkId,
    email,
    name,
    status,
    invitationtype: 'api',
    accessToken: `inv-${id}-${(id * 7907).toString(36)}`,
    callbackUrl: null,
    redirectUrl: null,
    hideInstruction: 0,
    sendEmail: 'no',
    stakeholderEmails: l.stakeholderEmails,
    proctoringMode: l.proctoringMode,
    imageProctoring: null,
    invitationType: l.invitationType,
    scheduleType: l.schedule.scheduleType,
    accessStart: iso(created),
    accessEnd: status === 'Expired' ? at : iso(created + 7 * DAY),
    timeZoneId: 1,
    reattemptOf: null,
    generatedIdentity: false,
    createdAt: iso(created),
    updatedAt: at,
    startedAt: started,
    finishedAt: finished ? at : null,
    cancelledAt: status === 'Cancelled' ? at : null,
    expiredAt: status === 'Expired' ? at : null,
    result: finished ? scoreAttempt(t, id) : null,
    ...extra,
  };
}
