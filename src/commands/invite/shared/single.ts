// `assess invite <testId> --email E --name N …`: one candidate, via the test's default link
// (operation 3) or a chosen link (`--link`, operation 10); run by ./single.run.ts.
import { defineCommand } from '../../../cli/command.js';
import { fieldsOfAnswer } from '../../../cli/json-fields.js';
import type { Column } from '../../../output/printer.js';
import type * as R from '../../../api/read/v3.js';
import { checkInvite, INVITE_ARGS, INVITE_FLAGS } from './body.js';
import { v2InviteFields } from './v2-fields.js';

export const INVITATION_COLUMNS: Column<R.Invitation>[] = [
  { key: 'testInvitationId', header: 'Invitation', kind: 'id' },
  { key: 'testUrl', header: 'URL' },
  { key: 'status', header: 'Status', kind: 'status' },
];

/** What `--json a,b` may name for one invitation: the wire fields of either invite answer (the same), and `emailed`. */
const FIELDS = fieldsOfAnswer('v3.invite', INVITATION_COLUMNS, ['emailed']);

export default defineCommand({
  name: 'invite',
  args: INVITE_ARGS,
  description: 'Invite a candidate to a test through its default link, or through a chosen link with --link',
  examples: [
    'assess invite 1001 --email ann@example.com --name "Ann Lee"',
    'assess invite 1001 --email ann@example.com --name "Ann Lee" --start 2026-03-01 --end 7d --tz 35 --send-email',
    'assess invite 1001 --link 5002 --email ann@example.com --name "Ann Lee" --callback-url https://example.com/hook',
    'assess invite 1001 --no-mandatory-fields --json testInvitationId,testUrl',
  ],
  flags: INVITE_FLAGS,
  check: checkInvite,
  jsonFields: FIELDS,
  v2: { jsonFields: (input) => v2InviteFields(input) },
  handler: () => import('./single.run.js'),
});
