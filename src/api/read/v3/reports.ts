// v3 report (operation 4), read tolerantly (policy.ts).
import * as z from 'zod/mini';
import { invitationStatus, obj, optId, optList, optNum, optText } from '../policy.js';

const ReportSkill = obj({
  candidateQbScore: optNum,
  qbScore: optNum,
  noOfQue: optNum,
  qbId: optId,
  qbName: optText,
  sectionId: optId,
  sectionName: optText,
});
export type ReportSkill = z.infer<typeof ReportSkill>;

const ReportSection = obj({
  candidateScore: optNum,
  sectionScore: optNum,
  noOfQue: optNum,
  sectionId: optId,
  sectionName: optText,
  sectionTime: optNum,
  sectionTimeTaken: optNum,
  Skills: optList(ReportSkill),
});
export type ReportSection = z.infer<typeof ReportSection>;

export const Report = obj({
  testInvitationId: optId,
  /** A String in the spec; read as text whatever it arrives as. */
  testId: optText,
  candidateEmail: optText,
  candidateName: optText,
  attemptedOn: optText,
  status: invitationStatus.schema,
  score: optNum,
  scorePercentage: optNum,
  candidatePoints: optNum,
  totalTestPoints: optNum,
  testName: optText,
  pdfReportUrl: optText,
  PerformanceCategory: optText,
  reportType: optNum,
  sections: optList(ReportSection),
  Skills: optList(ReportSkill),
});
export type Report = z.infer<typeof Report>;
