// `callbacks process …` (re-queue notifications) and `callbacks listen` (receive them locally).
import { defineNoun } from '../../cli/command.js';

export default defineNoun({
  name: 'callbacks',
  description:
    'Re-queue completion notifications (callbacks), receive them ' +
    'locally into a durable inbox, reconcile, replay and verify them',
  verbs: {
    process: () => import('./process.js'),
    listen: () => import('./listen.js'),
    inbox: () => import('./inbox.js'),
    reconcile: () => import('./reconcile.js'),
    replay: () => import('./replay.js'),
    verify: () => import('./verify.js'),
  },
});
