// The flags of `assess report <invitationId>`, shared by its v3 side (../command.ts) and its v2 side
// (./v2.ts) so neither imports the other.
import * as z from 'zod/mini';
import { arg, flag, zx } from '../../../cli/command.js';
import type { InputOf } from '../../../cli/flags.js';
import { maxSizeFlag } from '../../shared/max-size.js';

export const REPORT_ARGS = { invitationId: arg(() => zx.id('900001')) };

export const REPORT_FLAGS = {
  type: flag('summary (sections), skills, or both (default summary)', { value: 'type' }, () =>
    z.optional(z.enum(['summary', 'skills', 'both'], { message: 'must be summary, skills or both, e.g. --type both' })),
  ),
  pdf: flag('download the PDF report instead', () => z.optional(z.boolean())),
  output: flag(
    'with --pdf: file or directory to write to, or - for standard output',
    { short: 'o', value: 'file' },
    () => z.optional(z.string().check(z.minLength(1, 'must be a file name, a directory, or - for standard output'))),
  ),
  force: flag('with --pdf: overwrite an existing file', () => z.optional(z.boolean())),
  maxSize: maxSizeFlag('with --pdf: the largest PDF to save', '50MiB'),
  ascii: flag('on a terminal: draw bars with # and . instead of block characters (also TERM=dumb)', () =>
    z.optional(z.boolean()),
  ),
  sections: flag('v2 only (--api v2): the section scores (GET /v2/org/report/{id}/sections)', () =>
    z.optional(z.boolean()),
  ),
};

export type ReportInput = InputOf<typeof REPORT_ARGS & typeof REPORT_FLAGS>;

export function checkReport(v: ReportInput, ctx: z.core.$RefinementCtx): void {
  if (v.pdf && v.type)
    ctx.addIssue({ code: 'custom', path: ['type'], message: 'applies to the JSON report, not to --pdf' });
  if (!v.pdf && v.output !== undefined)
    ctx.addIssue({ code: 'custom', path: ['output'], message: 'needs --pdf, e.g. report 900001 --pdf -o report.pdf' });
  if (!v.pdf && v.force) ctx.addIssue({ code: 'custom', path: ['force'], message: 'needs --pdf' });
  if (!v.pdf && v.maxSize !== undefined) ctx.addIssue({ code: 'custom', path: ['maxSize'], message: 'needs --pdf' });
}
