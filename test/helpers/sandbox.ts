// Starts a sandbox for a test on 127.0.0.1, port 0 (in this test process), and gives the
// environment that points the built binary at it, plus the control API.
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';

export interface TestSandbox {
  sb: RunningSandbox;
  /** Environment for runAssess: base URLs and account A's key. */
  env: Record<string, string>;
  /** Account B's key (for isolation tests). */
  otherKey: string;
  control<T = unknown>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T>;
  /** POST to the service as account A (raw HTTP, not through the CLI). */
  service<T = unknown>(path: string, body: unknown): Promise<T>;
  /** Requests the sandbox received (control routes excluded where the sandbox excludes them). */
  requests(): Promise<Array<{ method: string; path: string; status: number; body?: unknown }>>;
  close(): Promise<void>;
}

export async function startTestSandbox(
  opts: { stateFile?: string; latencyMs?: number; rateLimit?: string; rateLimitClock?: () => number } = {},
): Promise<TestSandbox> {
  const faults = opts.latencyMs ? { latencyMs: opts.latencyMs } : undefined;
  const sb = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    stateFile: opts.stateFile,
    faults,
    rateLimit: opts.rateLimit,
    rateLimitClock: opts.rateLimitClock,
  });
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
  return {
    sb,
    env: { ASSESS_BASE_URL: sb.baseUrl, ASSESS_BASE_URL_V2: sb.baseUrlV2, ASSESS_API_KEY: sb.keys[0]! },
    otherKey: sb.keys[1]!,
    control,
    service: async <T>(path: string, body: unknown): Promise<T> => {
      const res = await fetch(`${sb.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'X-API-KEY': sb.keys[0]!, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await res.json()) as T;
    },
    requests: async () => {
      const r = await control<unknown>('GET', '/requests');
      return (Array.isArray(r) ? r : (r as { requests: [] }).requests) as Array<{
        method: string;
        path: string;
        status: number;
        body?: unknown;
      }>;
    },
    close: () => sb.close(),
  };
}
