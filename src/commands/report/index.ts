// `report` is itself a command (`assess report <invitationId>`, command.ts) and a noun that takes
// verbs (`report export`, `report stats` are added to `verbs`).
import { defineNoun } from '../../cli/command.js';
import exportCmd from './export.js';
import stats from './stats.js';
import show from './command.js';

export default defineNoun({
  name: 'report',
  description: "Show or download a candidate's report",
  verbs: [exportCmd, stats],
  self: show,
});
