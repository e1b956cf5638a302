// `invite` is itself a command (`assess invite <testId> …`): one candidate (single.ts), or one
// per CSV row with --csv (bulk.ts); entry.ts dispatches between them.
import { defineNoun } from '../../cli/command.js';
import invite from './entry.js';

export default defineNoun({
  name: 'invite',
  description: 'Invite a candidate to a test (default link or --link) and print the invitation id and URL',
  verbs: [],
  self: invite,
});
