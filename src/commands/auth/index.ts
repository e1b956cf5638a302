import { defineNoun } from '../../cli/command.js';
import list from './list.js';
import login from './login.js';
import logout from './logout.js';
import status from './status.js';

export default defineNoun({
  name: 'auth',
  description: 'Store, check and remove the API key of a profile',
  verbs: [login, status, list, logout],
});
