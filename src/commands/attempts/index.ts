import { defineNoun } from '../../cli/command.js';

export default defineNoun({
  name: 'attempts',
  description: 'List invitations (test attempts) by state, cancel one, or wait for them to reach a status',
  verbs: { list: () => import('./list.js'), cancel: () => import('./cancel.js'), wait: () => import('./wait.js') },
});
