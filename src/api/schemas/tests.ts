// Tests: list (1) and detail (2). Shapes not shown in the spec; see docs/assumptions.md.
import * as z from 'zod';
import { Id, normaliseSectionId, unwrapResult } from './common.js';

/** Query of GET /v3/tests. Defaults (not shown in the spec): pageNo 1, pageSize 20, max 100. */
export const ListTestsQuery = z.object({
  pageNo: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type ListTestsQuery = z.infer<typeof ListTestsQuery>;

export const TestSummary = z.looseObject({
  testId: Id,
  testName: z.string(),
  accessKey: z.string().optional(),
  duration: z.number().optional(),
  questions: z.number().optional(),
  testStatus: z.string().optional(),
});
export type TestSummary = z.infer<typeof TestSummary>;

const TestsListBody = z.looseObject({
  tests: z.array(TestSummary),
  pageNo: z.number().optional(),
  pageSize: z.number().optional(),
  totalCount: z.number().optional(),
});
/** `{tests:[…]}`; a `{result:{tests:[…]}}` wrapper is unwrapped on read. */
export const TestsListResponse = z.preprocess(unwrapResult, TestsListBody);
export type TestsListResponse = z.infer<typeof TestsListResponse>;

export const TestSkill = z.looseObject({
  qbId: Id,
  qbName: z.string(),
  questions: z.number().optional(),
  points: z.number().optional(),
});
export type TestSkill = z.infer<typeof TestSkill>;

export const TestSection = z.preprocess(
  normaliseSectionId,
  z.looseObject({
    sectionId: Id.optional(),
    sectionName: z.string(),
    sectionType: z.string().optional(),
    questions: z.number().optional(),
    duration: z.number().optional(),
    points: z.number().optional(),
    skills: z.array(TestSkill).optional(),
  }),
);
export type TestSection = z.infer<typeof TestSection>;

const TestDetailBody = TestSummary.extend({
  sections: z.array(TestSection).optional(),
  totalPoints: z.number().optional(),
  defaultTestLinkId: Id.nullish(),
});
/** One test; a `{result:{…}}` wrapper is unwrapped on read. */
export const TestDetail = z.preprocess(unwrapResult, TestDetailBody);
export type TestDetail = z.infer<typeof TestDetail>;
