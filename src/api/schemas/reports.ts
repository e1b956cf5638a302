// Candidate report (4); the PDF (5) has no JSON body.
import * as z from 'zod';
import { Id, normaliseSectionId } from './common.js';
import { ReportType } from './enums.js';

export const ReportQuery = z.object({
  reportType: z.coerce.number().pipe(ReportType).default(1),
});
export type ReportQuery = z.infer<typeof ReportQuery>;

export const ReportSkill = z.preprocess(
  normaliseSectionId,
  z.looseObject({
    candidateQbScore: z.number(),
    qbScore: z.number(),
    noOfQue: z.number(),
    qbId: Id,
    qbName: z.string(),
    sectionId: Id.optional(),
    sectionName: z.string().optional(),
  }),
);
export type ReportSkill = z.infer<typeof ReportSkill>;

/** Section of a report; `sectionID` (sample spelling) is read as `sectionId`. */
export const ReportSection = z.preprocess(
  normaliseSectionId,
  z.looseObject({
    candidateScore: z.number(),
    sectionScore: z.number(),
    noOfQue: z.number(),
    sectionId: Id,
    sectionName: z.string(),
    sectionTime: z.number().nullish(),
    sectionTimeTaken: z.number().nullish(),
    Skills: z.array(ReportSkill).optional(),
  }),
);
export type ReportSection = z.infer<typeof ReportSection>;

/**
 * Candidate report. testId is a String in the spec (numbers tolerated). Score fields are null
 * while there is nothing to score (Pending, In Progress, Cancelled, Expired).
 * reportType 1: `sections` without Skills; 2: top-level `Skills` only; 3: `sections` with `Skills`.
 */
export const Report = z.looseObject({
  testInvitationId: Id,
  testId: z.union([z.string(), z.number()]),
  candidateEmail: z.string(),
  candidateName: z.string().optional(),
  attemptedOn: z.string().nullish(),
  status: z.string(),
  score: z.number().nullish(),
  scorePercentage: z.number().nullish(),
  candidatePoints: z.number().nullish(),
  totalTestPoints: z.number().nullish(),
  testName: z.string(),
  pdfReportUrl: z.string().nullish(),
  PerformanceCategory: z.string().nullish(),
  reportType: z.number().optional(),
  sections: z.array(ReportSection).optional(),
  Skills: z.array(ReportSkill).optional(),
});
export type Report = z.infer<typeof Report>;
