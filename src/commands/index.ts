// Every noun of the grammar (GUIDE §1), in the order --help lists them. Add a noun here; its verbs
// live in its own folder. Each noun is imported on demand: a run loads only the noun on its
// command line (src/cli/program.ts), so it neither evaluates nor builds the zod schemas of the rest.
import type { NounDef } from '../cli/command.js';

type Loader = () => Promise<{ default: NounDef }>;

export const NOUN_LOADERS: Readonly<Record<string, Loader>> = {
  auth: () => import('./auth/index.js'),
  config: () => import('./config/index.js'),
  tests: () => import('./tests/index.js'),
  links: () => import('./links/index.js'),
  invite: () => import('./invite/index.js'),
  attempts: () => import('./attempts/index.js'),
  reattempt: () => import('./reattempt/index.js'),
  report: () => import('./report/index.js'),
  callbacks: () => import('./callbacks/index.js'),
  settings: () => import('./settings/index.js'),
  timezones: () => import('./timezones/index.js'),
  sandbox: () => import('./sandbox/index.js'),
  api: () => import('./api/index.js'),
  mcp: () => import('./mcp/index.js'),
  completion: () => import('./completion/index.js'),
};

export const NOUN_NAMES = Object.keys(NOUN_LOADERS);

export async function loadNoun(name: string): Promise<NounDef> {
  return (await NOUN_LOADERS[name]()).default;
}

/** All nouns, in order: for the whole tree (help snapshot, completion) and for tests. */
export function loadNouns(): Promise<NounDef[]> {
  return Promise.all(NOUN_NAMES.map(loadNoun));
}
