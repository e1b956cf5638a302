// The shared local sandbox (`assess sandbox start`): one background `assess sandbox serve` per
// config dir, serving the same state file as the embedded sandbox of --sandbox. The process that
// started it records it in `<config>/sandbox/server.json` (pid, URLs, keys); `--sandbox` commands
// read that record and talk to it instead of starting a sandbox of their own. The record of a
// process that is gone (kill -9, a reboot) is stale: it is reported and removed, never used.
// An unreadable record (damaged by hand, a full disk) is stale only when nothing serves the
// state: a live `sandbox serve` holding the state's lock is that sandbox, whose URL is lost.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readPidLockOwner, realName } from '../util/lock-owner.js';
import { processAlive } from '../util/process-alive.js';

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
  | { kind: 'stale'; pid: number | null }
  /** The record cannot be read, but the process serving the state (its lock's owner) runs: its URL is unknown. */
  | { kind: 'unreadable'; pid: number; processStartedAt?: string };

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
    text = readFileSync(sandboxPaths(configDir).record, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
    throw err;
  }
  const rec = parseRecord(text);
  if (rec && sandboxAlive(rec.pid, rec.processStartedAt)) return { kind: 'running', sandbox: rec };
  if (!rec) {
    const server = stateServer(configDir);
    if (server) return { kind: 'unreadable', pid: server.pid, processStartedAt: server.startedAt };
  }
  return { kind: 'stale', pid: rec?.pid ?? null };
}

/**
 * The live `assess sandbox serve` that holds the lock of this config dir's state (src/util/pid-lock.ts:
 * "pid start"), if any. An `assess --sandbox …` command holds it too while it runs its embedded
 * sandbox: where /proc shows the command line, only a `sandbox serve` counts.
 */
function stateServer(configDir: string): { pid: number; startedAt?: string } | null {
  const owner = readPidLockOwner(`${realName(sandboxPaths(configDir).state)}.lock`);
  if (!owner || owner.pid === process.pid || !sandboxAlive(owner.pid, owner.startedAt)) return null;
  let args: string[];
  try {
    args = readFileSync(`/proc/${owner.pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return owner; // no /proc (macOS): the lock's owner is taken for the server
  }
  const at = args.indexOf('sandbox');
  return at >= 0 && args[at + 1] === 'serve' ? owner : null;
}

/** Removes a stale record, unless another `sandbox start` replaced it meanwhile. */
export function removeStaleRecord(configDir: string, pid: number | null): void {
  const path = sandboxPaths(configDir).record;
  try {
    const now = parseRecord(readFileSync(path, 'utf8'));
    if (now && now.pid !== pid && sandboxAlive(now.pid, now.processStartedAt)) return;
  } catch {
    // gone already, or unreadable: remove
  }
  rmSync(path, { force: true });
}

export const unreadableNotice = (configDir: string, pid: number) =>
  `The shared sandbox's record ${sandboxPaths(configDir).record} is unreadable, but its server still runs (pid ${pid}, holding the state's lock); its URL is unknown.`;

export const staleNotice = (pid: number | null) =>
  `The shared sandbox${pid ? ` (pid ${pid})` : ''} is no longer running (it did not stop cleanly); its stale pid file was removed.`;
