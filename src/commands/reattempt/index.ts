// `reattempt` is itself a command: `assess reattempt <invitationId> …`.
import { defineNoun } from '../../cli/command.js';

export default defineNoun({
  name: 'reattempt',
  description: 'Allow a candidate to take a test again (new invitation when the previous one was taken)',
  verbs: {},
  self: () => import('./command.js'),
});
