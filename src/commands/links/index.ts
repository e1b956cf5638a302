import { defineNoun } from '../../cli/command.js';

export default defineNoun({
  name: 'links',
  description: 'List, read, create and update the test links of a test',
  verbs: {
    list: () => import('./list.js'),
    get: () => import('./get.js'),
    create: () => import('./create.js'),
    update: () => import('./update.js'),
    migrate: () => import('./migrate.js'),
  },
});
