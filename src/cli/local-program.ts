// Which command lines run dist/cli-local.cjs: the program without the nouns that talk to the
// service and without the embedded sandbox (scripts/build.mjs), half the size and with a code
// cache of its own warmed by local commands alone. A command that sends nothing reads and
// deserialises less: `config list` ~4 ms sooner (bench/README.md).
//
// The choice is made on the raw command line, before the program is loaded, so it is
// conservative: the noun must be the first word (commander dispatches on it; a global option in
// front of it, which could be --sandbox, sends the line to the full program), and --sandbox must
// not appear anywhere (the embedded sandbox is not in the local program). `auth status` and
// `auth login` can still send a request to check a key: the API client is in the local program.

/** Nouns whose commands the local program has. */
export const LOCAL_NOUNS = ['config', 'auth'];

export function isLocalLine(argv: readonly string[]): boolean {
  return argv.length > 0 && LOCAL_NOUNS.includes(argv[0]!) && !argv.includes('--sandbox');
}
