// Builds the Context a command runs with, from the process (or from test doubles).
import { maskUrlCredentials, Secrets } from '../api/redact.js';
import { escapeMessage } from '../output/escape.js';
import type { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import type { NounDef } from './command.js';
import type { Connection } from '../config/credentials.js';
import type { KeyOrigin } from '../config/key-origin.js';
import type { ConfigStore } from '../config/store.js';
import { keepAlivePool } from '../api/keep-alive.js';
import { DEFAULT_TRY_TIMEOUT_MS } from '../api/transport-spec.js';
import { type Context, type Env, type GlobalOptions, type IO, debugSink } from '../context.js';
import { UsageError } from '../errors.js';
import { decideColor, resolveGlobals } from './globals.js';
import { terminalSize } from './terminal-size.js';
import { styleFor } from '../output/style.js';
import { wrapText } from '../output/wrap.js';
import { sharedSandbox, startEmbeddedSandbox } from './sandbox-connection.js';

export interface ProcessLike {
  stdout: Writable & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: Writable & { isTTY?: boolean; columns?: number };
  stdin: Readable & { isTTY?: boolean };
  env: Env;
  /** Whether fd 0, 1 or 2 is a terminal, answered without building its stream (src/cli/real-process.ts). */
  isTTY?: (fd: 0 | 1 | 2) => boolean;
}

export interface Runtime {
  proc: ProcessLike;
  signal: AbortSignal;
  /** --debug or ASSESS_DEBUG=1 (src/cli/debug.ts), decided once by runCli. */
  debug: boolean;
  /** The run's one clean-up registry (ctx.onExit); runCli runs it after the command (src/cli/exit-hooks.ts). */
  exitHooks: Array<() => Promise<void> | void>;
  /** What SIGHUP does instead of stopping the run (ctx.onHangup), when anything is registered. */
  hangupHooks?: Set<() => void>;
  /** The command catalogue (ctx.loadNoun): src/commands/index.ts's loadNoun, given by the program. */
  loadNoun?: (name: string) => Promise<NounDef>;
  /** The run's secrets: runCli scrubs its standard streams of them (src/cli/scrubbed-process.ts). */
  secrets?: Secrets;
  /** Where the run's API key came from, once its connection is made: for a refused key's hint. */
  keyOrigin?: KeyOrigin;
}

export async function createContext(cmd: Command, rt: Runtime): Promise<Context> {
  const { proc } = rt;
  const opts = cmd.optsWithGlobals() as Record<string, unknown>;
  const secrets = (rt.secrets ??= new Secrets());
  // what the environment holds is held by the run: masked wherever it would be shown
  const env = proc.env;
  secrets.add(env.ASSESS_API_KEY?.trim(), env.ASSESS_WEBHOOK_SECRET?.trim(), env.ASSESS_LISTEN_TOKEN?.trim());
  for (const name of URL_VARIABLES) secrets.addUrl(env[name]);
  // registered first, so closed last: after whatever clean-up may still send
  const pool = keepAlivePool(proc.env);
  rt.exitHooks.push(() => pool.close());
  const io = await ioOf(proc, opts.color !== false);
  const { notice, warn } = noticesOn(io, proc);
  const { configDir, ConfigStore } = await import('../config/store.js');
  let store: ConfigStore | undefined;
  const config = async () => (store ??= new ConfigStore(configDir(proc.env), warn));
  const globals = await globalsOf(opts, proc.env, io, config, rt.debug);

  let connection: Promise<Connection> | undefined;
  const ctx: Context = {
    io,
    env: proc.env,
    globals,
    now: () => new Date(),
    signal: rt.signal,
    keepAlive: pool.get,
    config,
    connection: () =>
      (connection ??= connect(ctx, rt, config).then((c) => {
        if (c.keySource) rt.keyOrigin = { source: c.keySource, profile: c.profile, file: globals.apiKeyFile };
        return c;
      })),
    api: () => v3ClientOf(ctx),
    apiV2: () => v2ClientOf(ctx),
    loadNoun: (name) => (rt.loadNoun ? rt.loadNoun(name) : Promise.reject(new Error('no command catalogue here'))),
    onExit: (fn) => rt.exitHooks.push(fn),
    onHangup: (fn) => {
      const hooks = (rt.hangupHooks ??= new Set());
      hooks.add(fn);
      return () => void hooks.delete(fn);
    },
    secrets,
    info: (m) => void (globals.quiet || notice(escapeMessage(maskUrlCredentials(m)))),
    warn,
  };
  return ctx;
}

/**
 * The run's standard streams. Node builds each of process.stdout, .stderr and .stdin on first
 * use, and on a pipe that loads node:net (~3 ms), a file or pipe stdin its stream modules: a
 * command builds only the streams it writes to or reads, and asks whether one is a terminal
 * without building it.
 */
async function ioOf(proc: ProcessLike, colorFlag: boolean): Promise<IO> {
  const stdoutIsTTY = proc.isTTY ? proc.isTTY(1) : Boolean(proc.stdout.isTTY);
  let size: { columns: number; rows: number } | undefined;
  const screen = () =>
    (size ??= {
      columns: terminalSize(proc.env.COLUMNS, proc.stdout.columns, 80),
      rows: terminalSize(proc.env.LINES, proc.stdout.rows, 24),
    });
  const color = decideColor(proc.env, stdoutIsTTY, colorFlag);
  const style = await styleFor(color);
  return {
    get stdout() {
      return proc.stdout;
    },
    get stderr() {
      return proc.stderr;
    },
    get stdin() {
      return proc.stdin;
    },
    stdoutIsTTY,
    get stderrIsTTY() {
      return proc.isTTY ? proc.isTTY(2) : Boolean(proc.stderr.isTTY);
    },
    get stdinIsTTY() {
      return proc.isTTY ? proc.isTTY(0) : Boolean(proc.stdin.isTTY);
    },
    color,
    style,
    get columns() {
      return screen().columns;
    },
    get rows() {
      return screen().rows;
    },
  };
}

/**
 * Notices quote service text and URLs: control characters escaped, URL passwords masked. On a
 * terminal they are broken at word boundaries to its width (the terminal would cut words).
 */
function noticesOn(io: IO, proc: ProcessLike) {
  const notice = (text: string) => {
    const width = io.stderrIsTTY ? terminalSize(proc.env.COLUMNS, proc.stderr.columns, 80) : undefined;
    io.stderr.write(`${width ? wrapText(text, width) : text}\n`);
  };
  const warn = (m: string) =>
    notice(`${io.color ? '\u001b[33mwarning:\u001b[39m' : 'warning:'} ${escapeMessage(maskUrlCredentials(m))}`);
  return { notice, warn };
}

/**
 * The global options, with the profile's preferences (output, api, tz) where no flag says
 * otherwise. A broken config file must not stop commands that do not need it (e.g.
 * `assess --sandbox …` with explicit flags): it is reported by whichever command reads it.
 */
async function globalsOf(
  opts: Record<string, unknown>,
  env: Env,
  io: IO,
  config: () => Promise<ConfigStore>,
  debug: boolean,
): Promise<GlobalOptions> {
  let profilePrefs: { output?: import('../output/format.js').OutputFormat; api?: 'v3' | 'v2'; tz?: string } = {};
  try {
    const p = await (await config()).profile((opts.profile as string) ?? env.ASSESS_PROFILE ?? 'default');
    profilePrefs = { output: p.output, api: p.api, tz: p.tz };
  } catch {
    // reported by whichever command reads the config
  }
  const globals = resolveGlobals(opts, env, io, profilePrefs.output, debug);
  if (globals.queryText !== undefined)
    globals.query = await (await import('../output/query.js')).compileQuery(globals.queryText);
  if (!globals.apiExplicit && profilePrefs.api) globals.api = profilePrefs.api;
  if (profilePrefs.tz !== undefined) globals.defaultTz = profilePrefs.tz;
  return globals;
}

/**
 * `ctx.api()` and `ctx.apiV2()`: a client of `ctx.connection()`, with the context's hooks. A
 * context that gives its commands another connection (`assess mcp`: one with a guard) gives
 * them clients of it with these.
 */
export async function v3ClientOf(ctx: Context): Promise<import('../api/v3.js').V3Client> {
  const clients = await import('../api/clients.js');
  return clients.v3ClientOf(await ctx.connection(), clientHooks(ctx));
}

export async function v2ClientOf(ctx: Context): Promise<import('../api/v2.js').V2Client> {
  const clients = await import('../api/clients.js');
  return clients.v2ClientOf(await ctx.connection(), clientHooks(ctx));
}

function clientHooks(ctx: Context) {
  return {
    debug: debugSink(ctx),
    warn: (line: string) => ctx.warn(line),
    signal: ctx.signal,
    pool: ctx.keepAlive,
    secrets: ctx.secrets,
  };
}

async function connect(ctx: Context, rt: Runtime, config: () => Promise<ConfigStore>): Promise<Connection> {
  const { resolveKey } = await import('../config/credentials.js');
  const { resolveBaseUrls } = await import('../config/base-url.js');
  const { answerCapBytes } = await import('../api/answer-cap.js');
  const { globals, env } = ctx;
  if (globals.sandbox) return (await sharedSandbox(ctx, config)) ?? startEmbeddedSandbox(ctx, rt, config);
  const store = await config();
  const known = Object.keys(await store.profiles());
  // A profile named explicitly must exist (a typo would otherwise silently use no key).
  if (globals.profile !== 'default' && !known.includes(globals.profile)) {
    const fromEnv = globals.profileFrom === 'ASSESS_PROFILE';
    throw new UsageError(
      `${fromEnv ? 'ASSESS_PROFILE' : '--profile'}: no profile '${globals.profile}'` +
        (known.length ? ` (known: ${known.join(', ')})` : ' (none is stored yet)'),
      `create it with: assess auth login --profile ${globals.profile}; ` +
        `list them with: assess auth list${fromEnv ? "; or unset ASSESS_PROFILE to use 'default'" : ''}`,
    );
  }
  const profile = await store.profile(globals.profile);
  const key = await resolveKey({
    apiKeyFile: globals.apiKeyFile,
    keyStdin: globals.keyStdin,
    env,
    stdin: globals.keyStdin ? ctx.io.stdin : undefined,
    profile,
    signal: ctx.signal,
    warn: ctx.warn,
  });
  // the key and the profile's URL passwords: masked in everything the run shows from now on
  ctx.secrets.add(key.apiKey).addUrl(profile.baseUrl).addUrl(profile.baseUrlV2);
  const urls = resolveBaseUrls({ env, profileName: globals.profile, profile, insecureHttp: globals.insecureHttp });
  for (const n of urls.notices) ctx.warn(n);
  return {
    ...key,
    profile: globals.profile,
    baseUrl: urls.baseUrl,
    baseUrlV2: urls.baseUrlV2,
    baseUrlFrom: urls.baseUrlFrom,
    baseUrlV2From: urls.baseUrlV2From,
    timeoutMs: globals.timeoutMs ?? seconds(profile.timeout),
    tryTimeoutMs: globals.tryTimeoutMs ?? seconds(profile.tryTimeout) ?? DEFAULT_TRY_TIMEOUT_MS,
    maxAttempts: profile.retries ?? 4,
    maxAnswerBytes: answerCapBytes(env, profile.maxAnswerMib),
    sandbox: false,
    insecureHttp: globals.insecureHttp || profile.insecureHttp === true,
  };
}

/** Variables whose URL may carry a password. */
const URL_VARIABLES = [
  'ASSESS_BASE_URL',
  'ASSESS_BASE_URL_V2',
  'http_proxy',
  'HTTP_PROXY',
  'https_proxy',
  'HTTPS_PROXY',
];

const seconds = (s: number | undefined) => (s ? Math.round(s * 1000) : undefined);
