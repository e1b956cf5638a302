// `callbacks process …` (re-queue notifications) and `callbacks listen` (receive them locally).
import { defineNoun } from '../../cli/command.js';
import listen from './listen.js';
import processCmd from './process.js';

export default defineNoun({
  name: 'callbacks',
  description: 'Re-queue completion notifications (callbacks) for invitations, or receive them locally',
  verbs: [processCmd, listen],
});
