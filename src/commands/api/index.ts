import { defineNoun } from '../../cli/command.js';
import request from './command.js';

export default defineNoun({
  name: 'api',
  description: 'Make an authenticated request to any endpoint and print the response body (raw escape hatch)',
  verbs: {},
  self: request,
});
