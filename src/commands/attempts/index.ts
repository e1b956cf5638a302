import { defineNoun } from '../../cli/command.js';
import cancel from './cancel.js';
import list from './list.js';

export default defineNoun({
  name: 'attempts',
  description: 'List invitations (test attempts) by state, or cancel one',
  verbs: [list, cancel],
});
