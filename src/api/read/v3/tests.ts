// v3 tests (operations 1, 2): a listing's rows and one test's detail, read tolerantly (policy.ts).
import * as z from 'zod/mini';
import { id, list, obj, optId, optList, optNum, optText, testStatus, arrayAs } from '../policy.js';

/** A test as listed; v2 lists the same fields (read/v2.ts). */
export const testSummaryShape = () => ({
  testId: id,
  testName: optText,
  accessKey: optText,
  duration: optNum,
  questions: optNum,
  testStatus: testStatus.schema,
});
export const TestSummary = obj(testSummaryShape());
export type TestSummary = z.infer<typeof TestSummary>;

export const TestsList = z.pipe(
  z.transform(arrayAs('tests')),
  obj({ tests: list(TestSummary), pageNo: optNum, pageSize: optNum, totalCount: optNum }),
);
export type TestsList = z.infer<typeof TestsList>;

const TestSkill = obj({ qbId: optId, qbName: optText, questions: optNum, points: optNum });
const TestSection = obj({
  sectionId: optId,
  sectionName: optText,
  sectionType: optText,
  questions: optNum,
  duration: optNum,
  points: optNum,
  skills: optList(TestSkill),
});
export type TestSection = z.infer<typeof TestSection>;

export const TestDetail = obj({
  testId: optId,
  testName: optText,
  accessKey: optText,
  duration: optNum,
  questions: optNum,
  testStatus: testStatus.schema,
  sections: optList(TestSection),
  totalPoints: optNum,
  defaultTestLinkId: optId,
});
export type TestDetail = z.infer<typeof TestDetail>;
