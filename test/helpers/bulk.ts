// Helpers for the bulk e2e tests: a sandbox with injected latency (so a run can be interrupted
// mid-way), a spawned binary the test can signal, and small file/poll utilities.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { baseEnv, BIN, ROOT, tempDir, type RunResult } from './cli.js';

export interface LatencySandbox {
  sb: RunningSandbox;
  env: Record<string, string>;
  control<T = unknown>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T>;
  /** POST to the service as account A. */
  service<T = unknown>(path: string, body: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function startLatencySandbox(latencyMs = 0): Promise<LatencySandbox> {
  const sb = await startSandbox({ port: 0, host: '127.0.0.1', faults: { latencyMs } });
  const control = async <T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${sb.baseUrl}/_sandbox${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`control ${method} ${path} → ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const service = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await fetch(`${sb.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'X-API-KEY': sb.keys[0]!, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as T;
  };
  return {
    sb,
    env: { ASSESS_BASE_URL: sb.baseUrl, ASSESS_BASE_URL_V2: sb.baseUrlV2, ASSESS_API_KEY: sb.keys[0]! },
    control,
    service,
    close: () => sb.close(),
  };
}

export interface Spawned {
  child: ChildProcess;
  done: Promise<RunResult>;
}

/** Starts the built binary without waiting, so the test can signal it mid-way. */
export function spawnAssess(args: string[], opts: { env: Record<string, string>; cwd?: string; stdin?: string }): Spawned {
  const env = { ...baseEnv(tempDir().dir), ...opts.env };
  const child = spawn(process.execPath, [BIN, ...args], { env, cwd: opts.cwd ?? ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const done = new Promise<RunResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  child.stdin!.end(opts.stdin ?? '');
  return { child, done };
}

/** Polls until `check` is true (every 20 ms, at most `ms`); throws on timeout. */
export async function waitFor(check: () => boolean | Promise<boolean>, ms = 30_000, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The complete lines of an NDJSON file ([] when it does not exist); a torn last line is left out. */
export function ndjson<T = Record<string, unknown>>(path: string): T[] {
  if (!existsSync(path)) return [];
  const lines = readFileSync(path, 'utf8').split('\n');
  lines.pop(); // after the last newline: empty, or a line still being written
  return lines.filter((l) => l.trim()).map((l) => JSON.parse(l) as T);
}

export function csvOf(rows: string[][], header = ['email', 'name']): string {
  return [header, ...rows].map((r) => r.join(',')).join('\n') + '\n';
}
