// How the v2 client reads each answer's `result`: the same tolerant policy as v3 (policy.ts).
// The envelope `{statuscode, description, result}` is read in src/api/client.ts. Plain declarations,
// built on a run's first v2 answer (catalog.ts).
import * as z from 'zod/mini';
import { testSummaryShape } from './v3/tests.js';
import {
  arrayAs,
  id,
  list,
  obj,
  optId,
  optList,
  optNum,
  optText,
  text,
  v2ReportStatus,
  v2TestStatus,
} from './policy.js';

/** A score the samples send as a String (may be negative) or a number. */
const score = z.nullish(z.union([z.number(), z.string()]));

// v2 lists a test with the same fields as v3
const testShape = testSummaryShape;
export const V2Test = obj(testShape());
export type V2Test = z.infer<typeof V2Test>;
export const V2Tests = z.pipe(z.transform(arrayAs('tests')), obj({ tests: list(V2Test), testsCount: optNum }));

const V2Section = obj({ sectionName: optText, sectionType: optText, questions: optNum, duration: optNum });
export const V2TestDetail = obj({ ...testShape(), testId: optId, sections: optList(V2Section) });
export type V2TestDetail = z.infer<typeof V2TestDetail>;

export const V2Registered = obj({ testInvitationId: optId, takeTestURL: optText });
export const V2LinkRegistered = obj({ testInvitationId: optId, testUrl: optText, testAccessTime: optText });

export const V2Report = obj({
  emailId: optText,
  fullName: optText,
  timeTaken: optNum,
  testName: optText,
  duration: optNum,
  questions: optNum,
  attemptedOn: optText,
  totalScore: score,
  score: score,
  wv: optNum,
  tv: optNum,
  testStatus: v2TestStatus.schema,
  reportStatus: v2ReportStatus.schema,
});
export type V2Report = z.infer<typeof V2Report>;

export const V2SectionScore = obj({ sectionName: optText, sectionScore: score, candidateScore: score });
export type V2SectionScore = z.infer<typeof V2SectionScore>;
/** A list of section scores; `{sections: […]}` or null read as the list. */
export const V2SectionReport = z.pipe(
  z.transform((v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? (Object.values(v).find(Array.isArray) ?? v) : v,
  ),
  list(V2SectionScore),
);

export const V2TestLink = obj({
  testLinkId: id,
  testId: optId,
  testLinkName: optText,
  testLinkAccessKey: optText,
  accessTime: optNum,
  startDateTime: optText,
  endDateTime: optText,
  timeZoneId: optId,
  inviteCandidateOnly: optNum,
  imageProctoring: optNum,
  emailToStakeholder: optText,
  testLinkStatus: optNum,
});
export type V2TestLink = z.infer<typeof V2TestLink>;
export const V2TestLinks = z.pipe(z.transform(arrayAs('testLinks')), obj({ testLinks: list(V2TestLink) }));
/** A created or updated link: the write succeeded even if its id is missing. */
export const V2WrittenLink = obj({ ...V2TestLink.def.out.shape, testLinkId: optId });

/** The v2 envelope, keys read in any case; `statuscode` as text. */
export const V2Envelope = obj({ statuscode: z.optional(text), description: optText, result: z.unknown() });
