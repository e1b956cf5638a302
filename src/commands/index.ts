// Every noun of the grammar (GUIDE §1), in the order --help lists them. Add a noun here; its verbs
// live in its own folder. Each noun is imported on demand: a run loads only the noun on its
// command line (src/cli/program.ts), so it neither evaluates nor builds the zod schemas of the rest;
// within it, only the verb on the line when there is one (each noun's index.ts lists its verbs'
// imports).
import type { CommandDef, NounDecl, NounDef } from '../cli/command.js';

type Loader = () => Promise<{ default: NounDecl }>;

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
  store: () => import('./store/index.js'),
  api: () => import('./api/index.js'),
  mcp: () => import('./mcp/index.js'),
  completion: () => import('./completion/index.js'),
};

export const NOUN_NAMES = Object.keys(NOUN_LOADERS);

/**
 * A noun with its verbs. Given the word after the noun on a command line (`onLine`), only what
 * that line can run is loaded: the verb it names; none when it names no verb of a noun that is
 * itself a command (`report 900001`); every verb otherwise (`tests`, `tests lsit`: help and
 * suggestions list them all). The others are `omitted`.
 */
export async function loadNoun(name: string, onLine?: { word: string | undefined }): Promise<NounDef> {
  const { verbs: loaders, ...noun } = (await NOUN_LOADERS[name]()).default;
  const names = Object.keys(loaders);
  const word = onLine?.word;
  const wanted = !onLine ? names : word !== undefined && names.includes(word) ? [word] : noun.self ? [] : names;
  const verbs: CommandDef[] = await Promise.all(wanted.map(async (v) => (await loaders[v]()).default));
  return { ...noun, verbs, omitted: names.filter((v) => !wanted.includes(v)) };
}

/** All nouns, in order: for the whole tree (help snapshot, completion) and for tests. */
export function loadNouns(): Promise<NounDef[]> {
  return Promise.all(NOUN_NAMES.map((name) => loadNoun(name)));
}
