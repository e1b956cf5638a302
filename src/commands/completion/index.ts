import { defineNoun } from '../../cli/command.js';
import completion from './command.js';

export default defineNoun({ name: 'completion', description: completion.description, verbs: {}, self: completion });
