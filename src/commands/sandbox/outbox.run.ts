// What `assess sandbox outbox` does when it runs; its declaration (flags, help, fields) is ./outbox.ts.
import { Printer } from '../../output/printer.js';
import { control, sandboxUrl } from './shared/control.js';
import type { Run } from '../../cli/command.js';
import type outbox from './outbox.js';

export const run: Run<typeof outbox> = async (ctx, input) => {
  const q = input.invitation ? `?invitation=${input.invitation}` : '';
  const r = await control<{ emails: Array<Record<string, unknown>> }>(
    ctx,
    await sandboxUrl(ctx, input.url),
    'GET',
    `/outbox${q}`,
  );
  await new Printer(ctx).list(r.emails, {
    // who got what first; the e-mail's own id last
    columns: [
      { key: 'to', header: 'To', priority: 1 },
      { key: 'subject', header: 'Subject', priority: 2 },
      { key: 'sentAt', header: 'Sent', priority: 3, kind: 'date' },
      { key: 'kind', header: 'Kind', priority: 4 },
      { key: 'testInvitationId', header: 'Invitation', priority: 5, kind: 'id' },
      { key: 'emailId', header: 'E-mail ID', priority: 6, kind: 'id' },
    ],
  });
};
