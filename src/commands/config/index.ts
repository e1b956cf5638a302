import { defineNoun } from '../../cli/command.js';
import get from './get.js';
import list from './list.js';
import set from './set.js';
import unset from './unset.js';

export default defineNoun({
  name: 'config',
  description: 'Read and change profile settings (base URLs, output, timeout, retries, concurrency, api)',
  verbs: [set, get, unset, list],
});
