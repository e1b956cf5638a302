import { defineNoun } from '../../cli/command.js';

export default defineNoun({
  name: 'config',
  description: 'Read and change profile settings (base URLs, output, timeout, retries, concurrency, api)',
  verbs: {
    set: () => import('./set.js'),
    get: () => import('./get.js'),
    unset: () => import('./unset.js'),
    list: () => import('./list.js'),
  },
});
