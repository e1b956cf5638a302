// `invite` is itself a command (`assess invite <testId> …`): one candidate (shared/single.ts), or
// one per CSV row with --from-csv (shared/bulk.ts); command.ts dispatches between them.
import { defineNoun } from '../../cli/command.js';

export default defineNoun({
  name: 'invite',
  description: 'Invite a candidate to a test (default link or --link) and print the invitation id and URL',
  verbs: {},
  self: () => import('./command.js'),
});
