// `assess store …`: the profile's store, the SQLite file that holds what assess keeps over time
// (the callbacks inbox and queue, reconcile's records, …): where it is, a check, a backup.
import { defineNoun } from '../../cli/command.js';

export default defineNoun({
  name: 'store',
  description: "Where the profile's store (what assess keeps: the callbacks inbox, …) is; check it; back it up",
  verbs: {
    path: () => import('./path.js'),
    info: () => import('./info.js'),
    check: () => import('./check.js'),
    backup: () => import('./backup.js'),
  },
});
