// `assess sandbox outbox [--invitation ID]`: the e-mails the sandbox "sent" (nothing leaves the
// machine): invitations when sendEmail is yes, stakeholder e-mails on completion.
import * as z from 'zod/mini';
import { defineCommand, zx, flag } from '../../cli/command.js';
import { Printer } from '../../output/printer.js';
import { control, sandboxUrl } from './shared/control.js';

export default defineCommand({
  name: 'outbox',
  description: 'List the e-mails the sandbox would have sent: invitations (sendEmail yes) and stakeholder reports',
  examples: [
    'assess --sandbox sandbox outbox',
    'assess sandbox outbox --invitation 900010 --json --url http://127.0.0.1:4010',
  ],
  flags: {
    invitation: flag('only e-mails about this invitation', { value: 'id' }, () => z.optional(zx.id('900010'))),
    url: flag('sandbox base URL (default: --sandbox, or the profile base URL)', { value: 'url' }, () =>
      z.optional(zx.url()),
    ),
  },
  async run(ctx, input) {
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
  },
});
