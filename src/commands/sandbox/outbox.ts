// `assess sandbox outbox [--invitation ID]`: the e-mails the sandbox "sent" (nothing leaves the
// machine): invitations when sendEmail is yes, stakeholder e-mails on completion.
import * as z from 'zod/mini';
import { defineCommand, zx, flag } from '../../cli/command.js';

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
  handler: () => import('./outbox.run.js'),
});
