// `callbacks process …` now; `callbacks listen` is added to `verbs` by its own issue.
import { defineNoun } from '../../cli/command.js';
import processCmd from './process.js';

export default defineNoun({
  name: 'callbacks',
  description: 'Re-queue completion notifications (callbacks) for invitations',
  verbs: [processCmd],
});
