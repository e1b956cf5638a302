import { defineNoun } from '../../cli/command.js';
import get from './get.js';
import set from './set.js';

export default defineNoun({
  name: 'settings',
  description: 'Read and change the settings of a test (full replace, validated, with a diff)',
  verbs: [get, set],
});
