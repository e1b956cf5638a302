// What `assess sandbox simulate` does when it runs; its declaration (flags, help, fields) is ./simulate.ts.
import { UsageError } from '../../errors.js';
import { Printer, type Column } from '../../output/printer.js';
import { control, sandboxUrl } from './shared/control.js';
import type { InputOfCommand, Run } from '../../cli/command.js';
import type { Context } from '../../context.js';
import type simulate from './simulate.js';

type Input = InputOfCommand<typeof simulate>;
type Simulated = {
  invitation: Record<string, unknown> & { testInvitationId: number; email: string; testName: string; status: string };
  report: Record<string, unknown> | null;
  redirectTo?: string | null;
  callbacks?: Array<{ deliveryId: number; event: string; url: string }>;
};

export const run: Run<typeof simulate> = async (ctx, input) => {
  const r = await simulateOn(ctx, input);
  const finished = ['complete', 'leave', 'terminate'].includes(input.to);
  const view: View = {
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
  await new Printer(ctx).object(view, { fields: fieldsOf(ctx, r.report !== null, finished) });
  for (const cb of r.callbacks ?? [])
    ctx.info(
      `Callback '${cb.event}' queued for ${cb.url} (delivery ${cb.deliveryId}): assess sandbox deliveries ` +
        `--invitation ${input.invitationId}`,
    );
};

async function simulateOn(ctx: Context, input: Input): Promise<Simulated> {
  const base = await sandboxUrl(ctx, input.url);
  return control<Simulated>(ctx, base, 'POST', `/invitations/${input.invitationId}/simulate`, {
    to: input.to,
    score: input.score,
    sectionScores: input.sectionScores,
  }).catch((err: unknown) => {
    // the sandbox knows the test's sections, the command line does not: its refusal, as the flag's usage error
    if (err instanceof UsageError && err.message.startsWith('sectionScores: '))
      throw new UsageError(`--section-scores: ${err.message.slice('sectionScores: '.length)}`);
    throw err;
  });
}

type View = Simulated['invitation'] & {
  candidatePoints?: unknown;
  totalTestPoints?: unknown;
  scorePercentage?: unknown;
  redirectTo?: string | null;
};

function fieldsOf(ctx: Context, scored: boolean, finished: boolean): Column<View>[] {
  const fields: Column<View>[] = [
    { key: 'testInvitationId', header: 'Invitation' },
    { key: 'email', header: 'Candidate' },
    { key: 'testName', header: 'Test' },
    { key: 'status', header: 'Status', kind: 'status' },
  ];
  if (scored)
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
  return fields;
}
