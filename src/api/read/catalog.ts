// The tolerant readers by name: what the operation table (src/api/operations/) names as the
// client's reading of an answer, and of each row of a listing. Each noun's readers are a module
// of their own, loaded with the first answer that needs one: building them all took ~2 ms of
// every request, and a command reads the answers of one or two nouns.
const MODULES = {
  tests: () => import('./v3/tests.js'),
  links: () => import('./v3/links.js'),
  invitations: () => import('./v3/invitations.js'),
  reports: () => import('./v3/reports.js'),
  attempts: () => import('./v3/attempts.js'),
  settings: () => import('./v3/settings.js'),
  timezones: () => import('./v3/timezones.js'),
  v2: () => import('./v2.js'),
};
type Modules = { [M in keyof typeof MODULES]: Awaited<ReturnType<(typeof MODULES)[M]>> };

/** Each reader's module. */
const HOME = {
  TestsList: 'tests',
  TestSummary: 'tests',
  TestDetail: 'tests',
  TestLinks: 'links',
  TestLink: 'links',
  WrittenLink: 'links',
  Invitation: 'invitations',
  Reattempt: 'invitations',
  Cancelled: 'invitations',
  Report: 'reports',
  TestAttempts: 'attempts',
  TestAttempt: 'attempts',
  ProcessedCallbacks: 'attempts',
  Settings: 'settings',
  TimeZones: 'timezones',
  TimeZone: 'timezones',
  V2Tests: 'v2',
  V2Test: 'v2',
  V2TestDetail: 'v2',
  V2Registered: 'v2',
  V2LinkRegistered: 'v2',
  V2Report: 'v2',
  V2SectionReport: 'v2',
  V2SectionScore: 'v2',
  V2TestLinks: 'v2',
  V2TestLink: 'v2',
  V2WrittenLink: 'v2',
} as const satisfies Record<string, keyof typeof MODULES>;

export type ReaderName = keyof typeof HOME;
type Home<N extends ReaderName> = Modules[(typeof HOME)[N]];
/** The reader schema of each name. */
export type Readers = { [N in ReaderName]: N extends keyof Home<N> ? Home<N>[N] : never };

/** The reader of that name, its module loaded on first use. */
export async function readerOf<N extends ReaderName>(name: N): Promise<Readers[N]> {
  const module: Record<string, unknown> = await MODULES[HOME[name]]();
  return module[name] as Readers[N];
}

/** Every reader (the tests walk them all). */
export async function allReaders(): Promise<Readers> {
  const names = Object.keys(HOME) as ReaderName[];
  const schemas = await Promise.all(names.map((n) => readerOf(n)));
  return Object.fromEntries(names.map((n, i) => [n, schemas[i]])) as Readers;
}
