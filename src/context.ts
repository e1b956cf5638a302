// What a command receives. Everything that touches the outside world (streams, TTY, colour,
// environment, clock, config, API clients) comes through here, so commands run in-process in
// tests with in-memory streams.
import type { FieldList } from './cli/json-fields.js';
import { maskUrlCredentials } from './api/redact.js';
import { escapeMessage } from './output/escape.js';
import type { Readable, Writable } from 'node:stream';
import type { OutputFormat } from './output/format.js';
import type { Style } from './output/style.js';

export interface IO {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Decided once: NO_COLOR, --no-color, FORCE_COLOR=0, TERM=dumb or a non-TTY stdout turn it off (FORCE_COLOR=1 on).
   * */
  color: boolean;
  /** Our colours: chalk's when `color`, else the text as it is (src/output/style.ts). */
  style: Style;
  /** Terminal width for tables: `COLUMNS`, else the TTY's, else 80. */
  columns: number;
  /** Terminal height (when a table is long enough to page): `LINES`, else the TTY's, else 24. */
  rows: number;
}

export interface GlobalOptions {
  profile: string;
  /** Where `profile` came from, for messages: the flag, the variable, or neither (`default`). */
  profileFrom?: '--profile' | 'ASSESS_PROFILE';
  output: OutputFormat;
  /** `-q`/`ASSESS_QUIET=1`: ctx.info prints nothing (warnings and errors still do). */
  quiet?: boolean;
  /** `--json a,b`: the fields to keep (undefined = all). */
  fields?: string[];
  debug: boolean;
  /** Prompts allowed: stdin and stderr are TTYs and --no-input is absent. */
  interactive: boolean;
  yes: boolean;
  /** `--timeout`: all the command may wait for the service (undefined: the profile's, else no limit). */
  timeoutMs?: number;
  /** `--try-timeout`: each request try's limit (undefined: the profile's, else 30 s). */
  tryTimeoutMs?: number;
  api: 'v3' | 'v2';
  apiExplicit: boolean;
  sandbox: boolean;
  /** `--insecure-http` / ASSESS_INSECURE_HTTP=1: the key may go over plain http:// to another machine. */
  insecureHttp: boolean;
  apiKeyFile?: string;
  keyStdin: boolean;
  /** `--csv-safe` / ASSESS_CSV_SAFE=1: neutralise spreadsheet formulas in --csv output. */
  csvSafe?: boolean;
  /** Long tables on a terminal go through a pager (false with --no-pager). */
  pager: boolean;
  /** `--query EXPR` as typed; compiled into `query` when the context is made. */
  queryText?: string;
  query?: import('./output/query.js').Query;
  /** The profile's `tz` setting: fills --tz where a command needs a time zone and none was given. */
  defaultTz?: string;
  /** Who runs the command when it is not a command line: `mcp` (an assistant's tool call); records name it. */
  via?: 'mcp';
}

export type Env = Record<string, string | undefined>;

export interface Context {
  io: IO;
  env: Env;
  globals: GlobalOptions;
  /**
   * The fields the command declared for `--json a,b` (CommandDef.jsonFields), already checked
   * before run(); the printer accepts them too. Undefined when the command declares none.
   */
  jsonFields?: FieldList;
  /**
   * This machine's clock, in sandbox mode too (a sandbox clock offset or freeze moves the sandbox's
   * timestamps, not this). Relative flag times (`--from 7d`) are resolved against the same clock.
   */
  now(): Date;
  /** Aborted on SIGINT, SIGTERM and SIGHUP; long-running work checks it. */
  signal: AbortSignal;
  /** Lazily opened profile store (conf is only loaded by commands that need it). */
  config(): Promise<import('./config/store.js').ConfigStore>;
  /** The v3 client with resolved credentials; throws AuthError when there is no key. */
  api(): Promise<import('./api/v3.js').V3Client>;
  /** The deprecated v2 client. */
  apiV2(): Promise<import('./api/v2.js').V2Client>;
  /** Connection details the clients use (base URLs, key source) without making a request. */
  connection(): Promise<import('./config/credentials.js').Connection>;
  /**
   * The command catalogue: a noun's definition with all its verbs (src/commands/index.ts, handed in
   * by the program, so a command reading other commands, as `assess mcp` does, imports none of them).
   */
  loadNoun(name: string): Promise<import('./cli/command.js').NounDef>;
  /**
   * The run's keep-alive pool, from this run's proxy settings (`env`): every API client of the run
   * is given it (`pool`); made on the first request, closed when the run ends.
   */
  keepAlive: import('./api/keep-alive.js').DispatcherSource;
  /**
   * Registers clean-up that runCli runs after the command, last registered first (results files,
   * temp files, an embedded sandbox, the keep-alive pool): the run's one clean-up registry.
   */
  onExit(fn: () => Promise<void> | void): void;
  /**
   * SIGHUP reloads instead of stopping while `fn` is registered (a server reading its certificate
   * again, as daemons do); returns the way to unregister it.
   */
  onHangup(fn: () => void): () => void;
  /**
   * The run's secrets (src/api/redact.ts): add every secret the command comes to hold; the
   * standard streams are scrubbed of them, and so must be every file the command writes.
   */
  secrets: import('./api/redact.js').Secrets;
  /** Writes a line to stderr (for notices, progress summaries and warnings). */
  info(message: string): void;
  warn(message: string): void;
}

/** Where `--debug` lines go (stderr, prefixed), or undefined when debugging is off. */
export function debugSink(ctx: Pick<Context, 'globals' | 'io'>): ((line: string) => void) | undefined {
  return ctx.globals.debug
    ? (line) => void ctx.io.stderr.write(`[debug] ${escapeMessage(maskUrlCredentials(line))}\n`)
    : undefined;
}
