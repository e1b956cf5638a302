// `timezones` is itself a command: `assess timezones [--search TEXT]`.
import { defineNoun } from '../../cli/command.js';
import list from './command.js';

export default defineNoun({ name: 'timezones', description: list.description, verbs: {}, self: list });
