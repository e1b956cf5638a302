// Every noun of the grammar (GUIDE §1). Add a noun here; its verbs live in its own folder.
import type { NounDef } from '../cli/command.js';
import api from './api/index.js';
import attempts from './attempts/index.js';
import auth from './auth/index.js';
import callbacks from './callbacks/index.js';
import completion from './completion/index.js';
import config from './config/index.js';
import invite from './invite/index.js';
import links from './links/index.js';
import reattempt from './reattempt/index.js';
import report from './report/index.js';
import sandbox from './sandbox/index.js';
import settings from './settings/index.js';
import tests from './tests/index.js';
import timezones from './timezones/index.js';

export const NOUNS: NounDef[] = [auth, config, tests, links, invite, attempts, reattempt, report, callbacks, settings, timezones, sandbox, api, completion];
