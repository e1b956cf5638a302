// Tests: list (1) and detail (2). Shapes not shown in the spec; see docs/assumptions.md.
import * as z from 'zod/mini';
import { Id, withSectionId, unwrapResult } from './common.js';

/** Query of GET /v3/tests. Defaults (not shown in the spec): pageNo 1, pageSize 20, max 100. */
export const ListTestsQuery = z.object({
  pageNo: z._default(z.coerce.number().check(z.int(), z.minimum(1)), 1),
  pageSize: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
});
export type ListTestsQuery = z.infer<typeof ListTestsQuery>;

export const TestSummary = z.looseObject({
  testId: Id,
  testName: z.string(),
  accessKey: z.optional(z.string()),
  duration: z.optional(z.number()),
  questions: z.optional(z.number()),
  testStatus: z.optional(z.string()),
});
export type TestSummary = z.infer<typeof TestSummary>;

const TestsListBody = z.looseObject({
  tests: z.array(TestSummary),
  pageNo: z.optional(z.number()),
  pageSize: z.optional(z.number()),
  totalCount: z.optional(z.number()),
});
/** `{tests:[…]}`; a `{result:{tests:[…]}}` wrapper is unwrapped on read. */
export const TestsListResponse = z.pipe(z.transform(unwrapResult), TestsListBody);
export type TestsListResponse = z.infer<typeof TestsListResponse>;

export const TestSkill = z.looseObject({
  qbId: Id,
  qbName: z.string(),
  questions: z.optional(z.number()),
  points: z.optional(z.number()),
});
export type TestSkill = z.infer<typeof TestSkill>;

export const TestSection = withSectionId(
  z.looseObject({
    sectionId: z.optional(Id),
    sectionName: z.string(),
    sectionType: z.optional(z.string()),
    questions: z.optional(z.number()),
    duration: z.optional(z.number()),
    points: z.optional(z.number()),
    skills: z.optional(z.array(TestSkill)),
  }),
);
export type TestSection = z.infer<typeof TestSection>;

const TestDetailBody = z.extend(TestSummary, {
  sections: z.optional(z.array(TestSection)),
  totalPoints: z.optional(z.number()),
  defaultTestLinkId: z.nullish(Id),
});
/** One test; a `{result:{…}}` wrapper is unwrapped on read. */
export const TestDetail = z.pipe(z.transform(unwrapResult), TestDetailBody);
export type TestDetail = z.infer<typeof TestDetail>;
