import { defineNoun } from '../../cli/command.js';
import create from './create.js';
import get from './get.js';
import list from './list.js';
import migrate from './migrate.js';
import update from './update.js';

export default defineNoun({
  name: 'links',
  description: 'List, read, create and update the test links of a test',
  verbs: [list, get, create, update, migrate],
});
