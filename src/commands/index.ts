// Every noun of the grammar (GUIDE §1). Add a noun here; its verbs live in its own folder.
import type { NounDef } from '../cli/command.js';
import api from './api/index.js';
import auth from './auth/index.js';
import config from './config/index.js';

export const NOUNS: NounDef[] = [auth, config, api];
