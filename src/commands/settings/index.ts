import { defineNoun } from '../../cli/command.js';

export default defineNoun({
  name: 'settings',
  description: 'Read and change the settings of a test (full replace, validated, with a diff)',
  verbs: { get: () => import('./get.js'), set: () => import('./set.js') },
});
