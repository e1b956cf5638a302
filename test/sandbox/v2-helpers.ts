// v2 calls for the sandbox tests: x-api-key, JSON bodies, the answer parsed when it is JSON.
import type { Harness, Res } from './helpers.js';

export function v2(h: Harness) {
  return async <T = any>(
    method: string,
    path: string,
    body?: unknown,
    key: string | null = h.keyA,
  ): Promise<Res<T>> => {
    const res = await fetch(h.sb.baseUrlV2 + path, {
      method,
      headers: {
        ...(key === null ? {} : { 'x-api-key': key }),
        ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const type = res.headers.get('content-type') ?? '';
    const raw = Buffer.from(await res.arrayBuffer());
    const parsed = type.includes('json') ? JSON.parse(raw.toString('utf8')) : raw;
    return { status: res.status, body: parsed as T, headers: res.headers };
  };
}
