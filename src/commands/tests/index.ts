import { defineNoun } from '../../cli/command.js';
import get from './get.js';
import list from './list.js';

export default defineNoun({
  name: 'tests',
  description: 'List the tests of the account and read a test with its sections',
  verbs: [list, get],
});
