import * as z from 'zod/mini';
import { defineCommand, zx, arg, flag } from '../../cli/command.js';
import { UsageError } from '../../errors.js';
import { Printer, type Column } from '../../output/printer.js';
import { control, sandboxUrl } from './shared/control.js';

const TARGETS = ['start', 'complete', 'leave', 'terminate', 'expire'] as const;

export default defineCommand({
  name: 'simulate',
  args: {
    invitationId: arg(() => zx.id('5001')),
    to: arg(() => z.enum(TARGETS, { message: `must be one of ${TARGETS.join(', ')}` })),
  },
  description: 'Move an invitation as a candidate would: start, complete (with a score), leave, terminate, expire',
  examples: [
    'assess --sandbox sandbox simulate 900004 start',
    'assess --sandbox sandbox simulate 900004 complete --score 82',
    'assess sandbox simulate 900005 complete --section-scores 90,60 --url http://127.0.0.1:4010',
  ],
  flags: {
    score: flag('overall score 0-100 when completing', { value: 'percent' }, () =>
      z.optional(z.coerce.number({ message: 'must be a number 0-100, e.g. 75' }).check(z.minimum(0), z.maximum(100))),
    ),
    sectionScores: flag('per-section scores 0-100, comma-separated, in section order', { value: 'list' }, () =>
      z.optional(
        z
          .pipe(
            z.string(),
            z.transform((s) => s.split(',').map((p) => Number(p.trim()))),
          )
          .check(
            z.refine(
              (a) => a.length > 0 && a.every((n) => Number.isFinite(n) && n >= 0 && n <= 100),
              'must be numbers 0-100, e.g. 90,60',
            ),
          ),
      ),
    ),
    url: flag('sandbox base URL (default: --sandbox, or the profile base URL)', { value: 'url' }, () =>
      z.optional(zx.url()),
    ),
  },
  async run(ctx, input) {
    const base = await sandboxUrl(ctx, input.url);
    const r = await control<{
      invitation: Record<string, unknown> & {
        testInvitationId: number;
        email: string;
        testName: string;
        status: string;
      };
      report: Record<string, unknown> | null;
      redirectTo?: string | null;
      callbacks?: Array<{ deliveryId: number; event: string; url: string }>;
    }>(ctx, base, 'POST', `/invitations/${input.invitationId}/simulate`, {
      to: input.to,
      score: input.score,
      sectionScores: input.sectionScores,
    }).catch((err: unknown) => {
      // the sandbox knows the test's sections, the command line does not: its refusal, as the flag's usage error
      if (err instanceof UsageError && err.message.startsWith('sectionScores: '))
        throw new UsageError(`--section-scores: ${err.message.slice('sectionScores: '.length)}`);
      throw err;
    });
    const finished = ['complete', 'leave', 'terminate'].includes(input.to);
    const view = {
      ...r.invitation,
      ...(r.report
        ? {
            candidatePoints: r.report.candidatePoints,
            totalTestPoints: r.report.totalTestPoints,
            scorePercentage: r.report.scorePercentage,
          }
        : {}),
      ...(finished ? { redirectTo: r.redirectTo ?? null } : {}),
    };
    const fields: Column<typeof view>[] = [
      { key: 'testInvitationId', header: 'Invitation' },
      { key: 'email', header: 'Candidate' },
      { key: 'testName', header: 'Test' },
      { key: 'status', header: 'Status', kind: 'status' },
    ];
    if (r.report)
      fields.push(
        {
          key: 'candidatePoints',
          header: 'Points',
          value: (o) => `${String(o.candidatePoints)} / ${String(o.totalTestPoints)}`,
        },
        { key: 'scorePercentage', header: 'Score %' },
      );
    if (finished)
      fields.push({
        key: 'redirectTo',
        header: 'Redirect to',
        value: (o) => o.redirectTo ?? (ctx.globals.output === 'table' ? '(no redirect URL registered)' : null),
      });
    await new Printer(ctx).object(view, { fields });
    for (const cb of r.callbacks ?? [])
      ctx.info(
        `Callback '${cb.event}' queued for ${cb.url} (delivery ${cb.deliveryId}): assess sandbox deliveries --invitation ${input.invitationId}`,
      );
  },
});
