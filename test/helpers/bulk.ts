// Helpers for the bulk e2e tests: a sandbox with injected latency (so a run can be interrupted
// mid-way), a spawned binary the test can signal, and small file/poll utilities.
import { existsSync, readFileSync } from 'node:fs';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';

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
