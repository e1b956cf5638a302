// Every noun of the grammar (GUIDE §1), in the order --help lists them. Add a noun here; its verbs
// live in its own folder. A noun's declaration (its index.ts) is small and known to the program
// from the start; its verbs are imported when a line reaches the noun (src/cli/tree.ts).
import { selfOf, type NounDecl, type NounDef } from '../cli/command.js';
import auth from './auth/index.js';
import config from './config/index.js';
import tests from './tests/index.js';
import links from './links/index.js';
import invite from './invite/index.js';
import attempts from './attempts/index.js';
import reattempt from './reattempt/index.js';
import report from './report/index.js';
import callbacks from './callbacks/index.js';
import settings from './settings/index.js';
import timezones from './timezones/index.js';
import sandbox from './sandbox/index.js';
import store from './store/index.js';
import api from './api/index.js';
import mcp from './mcp/index.js';
import completion from './completion/index.js';

export const NOUNS: readonly NounDecl[] = [
  auth,
  config,
  tests,
  links,
  invite,
  attempts,
  reattempt,
  report,
  callbacks,
  settings,
  timezones,
  sandbox,
  store,
  api,
  mcp,
  completion,
];

export const NOUN_NAMES = NOUNS.map((n) => n.name);

/** A noun with all its verbs loaded (`assess mcp` reads commands this way, and tests). */
export async function loadNoun(name: string): Promise<NounDef> {
  const noun = NOUNS.find((n) => n.name === name);
  if (!noun) throw new Error(`no noun ${name}`);
  const [self, verbs] = await Promise.all([
    selfOf(noun),
    Promise.all(Object.values(noun.verbs).map(async (load) => (await load()).default)),
  ]);
  return { name, description: noun.description, ...(self ? { self } : {}), verbs };
}

/** All nouns, in order: for the whole tree and for tests. */
export function loadNouns(): Promise<NounDef[]> {
  return Promise.all(NOUN_NAMES.map((name) => loadNoun(name)));
}
