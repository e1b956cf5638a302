import { defineNoun } from '../../cli/command.js';

export default defineNoun({
  name: 'tests',
  description: 'List the tests of the account and read a test with its sections',
  verbs: { list: () => import('./list.js'), get: () => import('./get.js') },
});
