// `report` is itself a command (`assess report <invitationId>`, command.ts) and a noun that takes
// verbs (`report export`, `report stats` are added to `verbs`).
import { defineNoun } from '../../cli/command.js';

export default defineNoun({
  name: 'report',
  description: "Show or download a candidate's report",
  verbs: { export: () => import('./export.js'), stats: () => import('./stats.js') },
  self: () => import('./command.js'),
});
