// `assess attempts cancel <invitationId>` (operation 8): asks first on a terminal (./cancel.run.ts).
import { defineCommand, zx, arg } from '../../cli/command.js';
import { fieldsOfAnswer } from '../../cli/json-fields.js';
import type * as R from '../../api/read/v3.js';
import type { Column } from '../../output/printer.js';

export const CANCEL_COLUMNS: Column<R.Cancelled>[] = [
  { key: 'testInvitationId', header: 'Invitation', priority: 1, kind: 'id' },
  { key: 'status', header: 'Status', priority: 2, kind: 'status' },
];

export default defineCommand({
  name: 'cancel',
  args: {
    invitationId: arg(() => zx.id('900001')),
  },
  description: 'Cancel an invitation (asks for confirmation on a terminal; --yes skips it)',
  examples: ['assess attempts cancel 900004', 'assess attempts cancel 900101 --yes --json'],
  jsonFields: fieldsOfAnswer('v3.cancel', CANCEL_COLUMNS),
  v2: { unsupported: 'v2 cannot cancel an invitation' },
  handler: () => import('./cancel.run.js'),
});
