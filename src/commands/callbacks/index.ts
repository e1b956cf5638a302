// `callbacks process …` (re-queue notifications) and `callbacks listen` (receive them locally).
import { defineNoun } from '../../cli/command.js';
import inbox from './inbox.js';
import listen from './listen.js';
import processCmd from './process.js';
import reconcile from './reconcile.js';
import replay from './replay.js';
import verify from './verify.js';

export default defineNoun({
  name: 'callbacks',
  description: 'Re-queue completion notifications (callbacks), receive them locally into a durable inbox, reconcile, replay and verify them',
  verbs: [processCmd, listen, inbox, reconcile, replay, verify],
});
