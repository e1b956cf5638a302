// The shared local sandbox (`assess sandbox start`): one background `assess sandbox serve` per
// config dir, serving the same state file as the embedded sandbox of --sandbox. The process that
// started it records it in `<config>/sandbox/server.json` (pid, URLs, keys); `--sandbox` commands
// read that record and talk to it instead of starting a sandbox of their own (an embedded one
// would work too: both use the state file at once, but its URLs end with the command). While a
// `start` brings one up, the record names that `start` (`starting`), so a second waits for it.
// The record of a process that is gone (kill -9, a reboot) is stale, as is an unreadable one:
// reported and removed, never used.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { removeLeftoversOnce } from '../util/leftovers.js';
import { processAlive, processStartedAt } from '../util/process-alive.js';

export interface SharedSandbox {
  pid: number;
  baseUrl: string;
  baseUrlV2: string;
  keys: string[];
  stateFile: string;
  logFile: string;
  startedAt: string;
  /** When its process started, as /proc tells it (src/util/process-alive.ts): a reused pid is not it. */
  processStartedAt?: string;
}

/** Whether the sandbox's process runs (a zombie, or another process with its pid, does not). */
export const sandboxAlive = (pid: number, startedAt?: string): boolean => processAlive(pid, startedAt);

export function sandboxPaths(configDir: string) {
  const dir = join(configDir, 'sandbox');
  return {
    dir,
    record: join(dir, 'server.json'),
    state: join(dir, 'state.db'),
    /** Where an earlier assess kept the state (JSON); named once, never read. */
    formerState: join(dir, 'state.json'),
    log: join(dir, 'server.log'),
  };
}

export type SharedLookup =
  | { kind: 'none' }
  | { kind: 'running'; sandbox: SharedSandbox }
  /** A `sandbox start` (this pid) is bringing one up: its record follows. */
  | { kind: 'starting'; pid: number }
  | { kind: 'stale'; pid: number | null };

/** The record a `start` writes first, naming itself, before the server it starts answers. */
interface Starting {
  starting: true;
  pid: number;
  processStartedAt?: string;
}

function parseStarting(text: string): Starting | null {
  try {
    const r = JSON.parse(text) as Partial<Starting>;
    return r.starting === true && Number.isInteger(r.pid) ? (r as Starting) : null;
  } catch {
    return null;
  }
}

function parseRecord(text: string): SharedSandbox | null {
  try {
    const r = JSON.parse(text) as Partial<SharedSandbox>;
    const ok =
      Number.isInteger(r.pid) &&
      (r.pid ?? 0) > 0 &&
      typeof r.baseUrl === 'string' &&
      /^http:\/\//.test(r.baseUrl) &&
      Array.isArray(r.keys) &&
      r.keys.every((k) => typeof k === 'string') &&
      (r.processStartedAt === undefined || typeof r.processStartedAt === 'string');
    return ok ? ({ baseUrlV2: r.baseUrl, stateFile: '', logFile: '', startedAt: '', ...r } as SharedSandbox) : null;
  } catch {
    return null;
  }
}

/** The shared sandbox of this config dir: running, stale (its process is gone, or the record is unreadable) or none. */
export function lookupSharedSandbox(configDir: string): SharedLookup {
  let text: string;
  try {
    text = fs.readFileSync(sandboxPaths(configDir).record, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
    throw err;
  }
  const rec = parseRecord(text);
  if (rec && sandboxAlive(rec.pid, rec.processStartedAt)) return { kind: 'running', sandbox: rec };
  const starting = rec ? null : parseStarting(text);
  if (starting && sandboxAlive(starting.pid, starting.processStartedAt)) return { kind: 'starting', pid: starting.pid };
  return { kind: 'stale', pid: rec?.pid ?? starting?.pid ?? null };
}

/**
 * Makes this process the one that starts the shared sandbox: writes the `starting` record, only
 * where there is no record. False when another process got there first. The record is written
 * whole beside its name, then linked to it (a link fails where the name exists): another start
 * never reads a claim half-written, which it would take for an unreadable record and remove.
 */
export function claimStart(configDir: string, files: ClaimFiles = fs): boolean {
  const { dir, record } = sandboxPaths(configDir);
  const rec: Starting = { starting: true, pid: process.pid, processStartedAt: processStartedAt(process.pid) };
  const text = `${JSON.stringify(rec)}\n`;
  const whole = `${record}.${process.pid}.claim`;
  removeLeftoversOnce(dir, CLAIM); // of a start killed between its write and its link
  files.writeFileSync(whole, text, { mode: 0o600 });
  try {
    files.linkSync(whole, record);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (!NO_LINKS.has(code ?? '')) throw err;
    return createOnly(files, record, text); // a file system without hard links
  } finally {
    files.rmSync(whole, { force: true });
  }
}

/** The file operations of a claim (a test watches the record after each). */
export type ClaimFiles = Pick<typeof fs, 'writeFileSync' | 'linkSync' | 'rmSync'>;

/** A claim's whole text beside the record, named by its writer's pid. */
const CLAIM = /^server\.json\.(?<pid>\d+)\.claim$/;
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

function createOnly(files: ClaimFiles, path: string, text: string): boolean {
  try {
    files.writeFileSync(path, text, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** Removes a stale record, unless another `sandbox start` replaced it meanwhile. */
export function removeStaleRecord(configDir: string, pid: number | null): void {
  const path = sandboxPaths(configDir).record;
  try {
    const text = fs.readFileSync(path, 'utf8');
    const now = parseRecord(text) ?? parseStarting(text);
    if (now && now.pid !== pid && sandboxAlive(now.pid, now.processStartedAt)) return;
  } catch {
    // gone already, or unreadable: remove
  }
  fs.rmSync(path, { force: true });
}

export const staleNotice = (pid: number | null) =>
  pid
    ? `The shared sandbox (pid ${pid}) is no longer running (it did not stop cleanly); its stale pid file was removed.`
    : "The shared sandbox's record was unreadable and was removed; a server it named, if one still runs, goes on " +
      'serving the same state until you stop it.';
