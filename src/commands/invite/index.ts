// `invite` is itself a command (`assess invite <testId> …`). Today it invites one candidate
// (single.ts); the bulk form (`--csv FILE`, one row per candidate) will dispatch from here.
import { defineNoun } from '../../cli/command.js';
import single from './single.js';

export default defineNoun({
  name: 'invite',
  description: 'Invite a candidate to a test (default link or --link) and print the invitation id and URL',
  verbs: [],
  self: single,
});
