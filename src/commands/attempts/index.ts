import { defineNoun } from '../../cli/command.js';
import cancel from './cancel.js';
import list from './list.js';
import wait from './wait.js';

export default defineNoun({
  name: 'attempts',
  description: 'List invitations (test attempts) by state, cancel one, or wait for them to reach a status',
  verbs: [list, cancel, wait],
});
