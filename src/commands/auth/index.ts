import { defineNoun } from '../../cli/command.js';

export default defineNoun({
  name: 'auth',
  description: 'Store, check and remove the API key of a profile',
  verbs: {
    login: () => import('./login.js'),
    status: () => import('./status.js'),
    list: () => import('./list.js'),
    logout: () => import('./logout.js'),
  },
});
