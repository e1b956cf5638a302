// Global options shared by every command, and how they turn into GlobalOptions.
import { Command, Option } from 'commander';
import type { Env, GlobalOptions, IO } from '../context.js';
import { TIMEOUT_RULE, timeoutSeconds } from '../config/timeout.js';
import { UsageError } from '../errors.js';
import { parseFieldList } from '../output/fields.js';
import type { OutputFormat } from '../output/format.js';

export function addGlobalOptions(program: Command): void {
  program
    .option('--profile <name>', 'configuration profile to use (env ASSESS_PROFILE)')
    .option('--json [fields]', 'print JSON; optionally only these comma-separated fields')
    .option('--ndjson', 'print one JSON object per line')
    .option('--csv', 'print CSV (RFC 4180)')
    .option(
      '--csv-safe',
      "with --csv: prefix cells starting with = + - @ with ' so spreadsheets do not run them (env ASSESS_CSV_SAFE=1)",
    )
    .option(
      '--query <expr>',
      'JMESPath expression applied to the JSON result (all pages), e.g. "[].testId"; prints JSON',
    )
    .option('--no-color', 'disable colour (also NO_COLOR, FORCE_COLOR=0, TERM=dumb)')
    .option('--no-pager', 'print long tables directly instead of through $PAGER (also ASSESS_PAGER=)')
    .option('--no-input', 'never prompt; a missing value is an error')
    .option('-y, --yes', 'answer yes to confirmations')
    .option(
      '-q, --quiet',
      'no notices on stderr (the sandbox banner, progress); warnings and errors still print (env ASSESS_QUIET=1)',
    )
    .option('--debug', 'log HTTP exchanges to stderr, key redacted (env ASSESS_DEBUG=1)')
    .option(
      '--timeout <seconds>',
      'the most the command waits for the service in all, retries and pages included (default: no limit)',
    )
    .option('--try-timeout <seconds>', "each request try's limit for its whole answer (default 30)")
    .addOption(new Option('--api <version>', 'API version where both exist').choices(['v3', 'v2']))
    .option(
      '--sandbox',
      "run against the local sandbox instead of the service: the shared one if 'assess sandbox start' runs it, else " +
        'one for this command',
    )
    .option(
      '--insecure-http',
      'allow sending the API key over plain http:// to a host that is not this machine (env ASSESS_INSECURE_HTTP=1)',
    )
    .option('--api-key-file <file>', 'read the API key from this file')
    .option('--key-stdin', 'read the API key from standard input')
    .addOption(new Option('--key-file <file>').hideHelp())
    // A key typed on the command line ends up in shell history and `ps`: refuse it with advice.
    .addOption(new Option('--api-key <key>').hideHelp())
    .addOption(new Option('--key <key>').hideHelp());
}

const RESERVED_PROFILE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

export function resolveGlobals(
  opts: Record<string, unknown>,
  env: Env,
  io: Pick<IO, 'stdoutIsTTY' | 'stdinIsTTY' | 'stderrIsTTY'>,
  profileOutput: OutputFormat | undefined,
  /** Decided once per run (src/cli/debug.ts). */
  debug: boolean,
): GlobalOptions {
  refuseKeyFlags(opts);
  const query = opts.query as string | undefined;
  const output = outputFormat(opts, query, io.stdoutIsTTY, profileOutput);
  const timeoutMs = millis(opts.timeout, '--timeout');
  const tryTimeoutMs = millis(opts.tryTimeout, '--try-timeout');
  const { profile, profileFrom } = profileOf(opts, env);
  return {
    profile,
    profileFrom,
    output,
    fields: parseFieldList(opts.json as string | boolean | undefined),
    debug,
    interactive: opts.input !== false && !env.CI && io.stderrIsTTY && io.stdinIsTTY, // stdin last: asking costs most
    yes: Boolean(opts.yes),
    quiet: Boolean(opts.quiet) || env.ASSESS_QUIET === '1',
    timeoutMs,
    tryTimeoutMs,
    api: (opts.api as 'v3' | 'v2' | undefined) ?? 'v3',
    apiExplicit: opts.api !== undefined,
    sandbox: Boolean(opts.sandbox),
    insecureHttp: Boolean(opts.insecureHttp) || env.ASSESS_INSECURE_HTTP === '1',
    apiKeyFile: (opts.apiKeyFile ?? opts.keyFile) as string | undefined,
    keyStdin: Boolean(opts.keyStdin),
    csvSafe: Boolean(opts.csvSafe) || env.ASSESS_CSV_SAFE === '1',
    pager: opts.pager !== false,
    queryText: query,
  };
}

/** A key on the command line, or from two sources at once, is refused with advice. */
function refuseKeyFlags(opts: Record<string, unknown>): void {
  if (opts.apiKey !== undefined || opts.key !== undefined) {
    throw new UsageError(
      `${opts.apiKey !== undefined ? '--api-key' : '--key'}: refusing an API key on the command line (shell history ` +
        `and process lists would show it)`,
      'use --key-stdin, --api-key-file F, ASSESS_API_KEY, or `assess auth login`',
    );
  }
  // two sources of the key: which one was meant is not ours to guess (the file used to win silently)
  if (opts.keyStdin && (opts.apiKeyFile !== undefined || opts.keyFile !== undefined))
    throw new UsageError(
      `--key-stdin and ${opts.apiKeyFile !== undefined ? '--api-key-file' : '--key-file'} cannot be used together: ` +
        `both give the API key`,
      'pick one: pipe the key with --key-stdin, or name the file with --api-key-file F',
    );
}

/** The output format: one flag at most, --query prints JSON, else the profile's, else by the terminal. */
function outputFormat(
  opts: Record<string, unknown>,
  query: string | undefined,
  stdoutIsTTY: boolean,
  profileOutput: OutputFormat | undefined,
): OutputFormat {
  const chosen = [opts.json !== undefined && 'json', opts.ndjson && 'ndjson', opts.csv && 'csv'].filter(Boolean);
  if (chosen.length > 1)
    throw new UsageError(`--${chosen[0]} and --${chosen[1]} cannot be used together; pick one output format`);
  if (query !== undefined) {
    if (opts.csv) throw new UsageError('--query and --csv cannot be used together: a query prints JSON (or --ndjson)');
    if (typeof opts.json === 'string' && opts.json !== '')
      throw new UsageError(
        '--query and --json FIELDS cannot be used together; select the ' +
          'fields in the query, e.g. "[].{id: testId, name: testName}"',
      );
  }
  let output: OutputFormat;
  if (query !== undefined && !opts.ndjson) output = 'json';
  else if (chosen.length) output = chosen[0] as OutputFormat;
  else if (profileOutput) output = profileOutput;
  else output = stdoutIsTTY ? 'table' : 'tsv';
  if (output === 'table' && !stdoutIsTTY) output = 'tsv';
  return output;
}

/** The profile's name (checked) and where it came from. */
function profileOf(opts: Record<string, unknown>, env: Env): Pick<GlobalOptions, 'profile' | 'profileFrom'> {
  const profileFrom =
    opts.profile !== undefined ? '--profile' : env.ASSESS_PROFILE !== undefined ? 'ASSESS_PROFILE' : undefined;
  const profile = (opts.profile as string | undefined) ?? env.ASSESS_PROFILE ?? 'default';
  // __proto__, constructor, prototype: names every JavaScript object already has (a profile so
  // named was reported saved but read back as nothing, or as a function)
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(profile) || RESERVED_PROFILE_NAMES.has(profile))
    throw new UsageError(
      `${profileFrom ?? '--profile'}: '${profile}' is not a valid profile name (letters, digits, . _ -; not ` +
        `__proto__, constructor or prototype)`,
      profileFrom === 'ASSESS_PROFILE' ? "set ASSESS_PROFILE to a valid name, or unset it to use 'default'" : undefined,
    );
  return { profile, profileFrom };
}

/** A timeout flag's seconds as milliseconds (undefined when not given). */
function millis(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const s = timeoutSeconds(String(value));
  if (s === undefined)
    throw new UsageError(`${flag}: must be ${TIMEOUT_RULE}, e.g. ${flag} 60 (got ${JSON.stringify(value)})`);
  return Math.round(s * 1000);
}

/** FORCE_COLOR as chalk (supports-color) reads it: `0` or `false` is off, any other value is on, also piped. */
export function decideColor(env: Env, stdoutIsTTY: boolean, flag: boolean): boolean {
  if (!flag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  const force = env.FORCE_COLOR;
  if (force === '0' || force === 'false') return false;
  if (force) return true;
  return stdoutIsTTY;
}
