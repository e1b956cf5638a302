// The flags of `assess report <invitationId>`, shared by its v3 side (../command.ts) and its v2 side
// (v2/report.ts) so neither imports the other.
import * as z from 'zod';
import { zx } from '../../../cli/command.js';

export const reportSchema = z
  .object({
    invitationId: zx.id('5001'),
    type: z.enum(['summary', 'skills', 'both'], { message: 'must be summary, skills or both, e.g. --type both' }).optional(),
    pdf: z.boolean().optional(),
    output: z.string().min(1, 'must be a file name, a directory, or - for standard output').optional(),
    force: z.boolean().optional(),
    sections: z.boolean().optional(),
    ascii: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.pdf && v.type) ctx.addIssue({ code: 'custom', path: ['type'], message: 'applies to the JSON report, not to --pdf' });
    if (!v.pdf && v.output !== undefined) ctx.addIssue({ code: 'custom', path: ['output'], message: 'needs --pdf, e.g. report 900001 --pdf -o report.pdf' });
    if (!v.pdf && v.force) ctx.addIssue({ code: 'custom', path: ['force'], message: 'needs --pdf' });
  });
export type ReportInput = z.infer<typeof reportSchema>;
