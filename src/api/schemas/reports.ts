// Candidate report (4); the PDF (5) has no JSON body.
import * as z from 'zod/mini';
import { Id, withSectionId } from './common.js';
import { ReportType } from './enums.js';

export const ReportQuery = z.object({
  reportType: z._default(z.pipe(z.coerce.number(), ReportType), 1),
});
export type ReportQuery = z.infer<typeof ReportQuery>;

export const ReportSkill = withSectionId(
  z.looseObject({
    candidateQbScore: z.number(),
    qbScore: z.number(),
    noOfQue: z.number(),
    qbId: Id,
    qbName: z.string(),
    sectionId: z.optional(Id),
    sectionName: z.optional(z.string()),
  }),
);
export type ReportSkill = z.infer<typeof ReportSkill>;

/** Section of a report; `sectionID` (sample spelling) is read as `sectionId`. */
export const ReportSection = withSectionId(
  z.looseObject({
    candidateScore: z.number(),
    sectionScore: z.number(),
    noOfQue: z.number(),
    sectionId: Id,
    sectionName: z.string(),
    sectionTime: z.nullish(z.number()),
    sectionTimeTaken: z.nullish(z.number()),
    Skills: z.optional(z.array(ReportSkill)),
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
  candidateName: z.optional(z.string()),
  attemptedOn: z.nullish(z.string()),
  status: z.string(),
  score: z.nullish(z.number()),
  scorePercentage: z.nullish(z.number()),
  candidatePoints: z.nullish(z.number()),
  totalTestPoints: z.nullish(z.number()),
  testName: z.string(),
  pdfReportUrl: z.nullish(z.string()),
  PerformanceCategory: z.nullish(z.string()),
  reportType: z.optional(z.number()),
  sections: z.optional(z.array(ReportSection)),
  Skills: z.optional(z.array(ReportSkill)),
});
export type Report = z.infer<typeof Report>;
