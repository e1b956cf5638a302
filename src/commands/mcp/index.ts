import { defineNoun } from '../../cli/command.js';
import mcp from './command.js';

export default defineNoun({ name: 'mcp', description: mcp.description, verbs: {}, self: mcp });
