// Which program a command line runs. dist/cli.cjs is the whole program. For the nouns below the
// build also writes a program of that family alone (the core every command needs — grammar,
// config, output, the API client — and those nouns' commands; not the other nouns, not the
// embedded sandbox of --sandbox: `sandbox serve`'s server is in the sandbox family's), with a code
// cache warmed by that family's own commands. A command reads, deserialises and sets up half the
// code it would otherwise: ~4 ms of every start-up (bench/README.md, Round 6).
//
// The choice is made on the raw command line, before any program is loaded, so it is
// conservative: the noun must be the first word (commander dispatches on it; a global option in
// front of it, which could be --sandbox, sends the line to the whole program), and --sandbox must
// not appear anywhere. `api` has no program of its own and runs the whole program, as does
// `completion` with a shell (its script is made from every noun's commands).

export interface ProgramSpec {
  /** The bundle in dist/. */
  file: string;
  nouns: string[];
  /** What the build runs to write the program's code cache (against a sandbox of the build). */
  warmUp: string[][];
  /** Whether the warm-up has the sandbox's key (commands that send requests) or none. */
  withKey: boolean;
  /** When only some of the nouns' lines can run in this program: which (the others run the whole). */
  takes?: (argv: readonly string[]) => boolean;
}

/** The shells `completion` writes a script for (its schema, this file's choice, the build's snapshot). */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
const EMAIL = ['--email', 'warm-up@example.com', '--name', 'Warm Up'];

export const PROGRAMS: ProgramSpec[] = [
  // no key: `auth status` then sends nothing, and the cache holds what local commands need
  {
    file: 'cli-local.cjs',
    nouns: ['config', 'auth'],
    withKey: false,
    warmUp: [
      ['config', 'list'],
      ['auth', 'status'],
    ],
  },
  {
    file: 'cli-tests.cjs',
    nouns: ['tests'],
    withKey: true,
    warmUp: [
      ['tests', 'list'],
      ['tests', 'get', '1001', '--json'],
      ['tests', 'get', 'abc'],
    ],
  },
  {
    file: 'cli-links.cjs',
    nouns: ['links'],
    withKey: true,
    warmUp: [
      ['links', 'list', '1001', '--json'],
      ['links', 'get', '1001', '5001'],
      ['links', 'list', 'abc'],
    ],
  },
  {
    file: 'cli-invite.cjs',
    nouns: ['invite'],
    withKey: true,
    warmUp: [
      ['invite', '1001', ...EMAIL, '--json'],
      ['invite', 'abc'],
      ['invite', '1001', '--email', 'nope'],
    ],
  },
  {
    file: 'cli-attempts.cjs',
    nouns: ['attempts', 'reattempt'],
    withKey: true,
    warmUp: [
      ['attempts', 'list', '--from', '30d', '--json'],
      ['attempts', 'cancel', 'abc'],
      ['attempts', 'list', '--state', 'nope'],
      ['reattempt', 'abc'],
    ],
  },
  {
    file: 'cli-report.cjs',
    nouns: ['report'],
    withKey: true,
    warmUp: [
      ['report', '900001', '--json'],
      ['report', '900001'],
      ['report', 'abc'],
    ],
  },
  {
    file: 'cli-settings.cjs',
    nouns: ['settings', 'timezones'],
    withKey: true,
    warmUp: [
      ['settings', 'get', '1001', '--json'],
      ['settings', 'get', 'abc'],
      ['timezones', '--json'],
    ],
  },
  {
    file: 'cli-callbacks.cjs',
    nouns: ['callbacks'],
    withKey: true,
    warmUp: [
      ['callbacks', 'process', 'abc'],
      ['callbacks', 'listen', '--port', 'abc'],
      ['callbacks', 'inbox', '--json'],
    ],
  },
  {
    file: 'cli-sandbox.cjs',
    nouns: ['sandbox'],
    withKey: true,
    warmUp: [
      ['sandbox', 'serve', '--port', 'abc'],
      ['sandbox', 'requests', '--json'],
      ['sandbox', 'faults', 'abc'],
    ],
  },
  // `completion <shell>` generates its script from every noun's commands (and is answered from the
  // build's snapshot anyway): only a word that is no shell, a usage error, runs this program
  {
    file: 'cli-completion.cjs',
    nouns: ['completion'],
    withKey: false,
    warmUp: [['completion', 'nope']],
    takes: (argv) => argv.length > 1 && !argv[1]!.startsWith('-') && !(SHELLS as readonly string[]).includes(argv[1]!),
  },
];

/** The program file for this command line, or undefined for the whole program. */
export function programFor(argv: readonly string[]): string | undefined {
  if (argv.length === 0 || argv.includes('--sandbox')) return undefined;
  const spec = PROGRAMS.find((p) => p.nouns.includes(argv[0]!));
  return spec && (!spec.takes || spec.takes(argv)) ? spec.file : undefined;
}
