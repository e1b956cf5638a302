// A small client for the sandbox control API (/_sandbox/…): used by `assess sandbox …` against
// the embedded sandbox (--sandbox) or a running `assess sandbox serve` (--url / base-url).
import type { Context } from '../../../context.js';
import { LocalError, NotFoundError, UsageError } from '../../../errors.js';

export async function sandboxUrl(ctx: Context, explicit?: string): Promise<string> {
  if (explicit) return explicit.replace(/\/+$/, '');
  return (await ctx.connection()).baseUrl;
}

export async function control<T>(ctx: Context, base: string, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${base}/_sandbox${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: ctx.signal,
    });
  } catch (err) {
    throw new LocalError(
      `no sandbox answering at ${base} (${(err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message})`,
      "start one with 'assess sandbox start' and add --sandbox, or point --url at an 'assess sandbox serve'",
    );
  }
  const text = await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    throw new LocalError(`${base} does not look like an assess sandbox (GET /_sandbox${path} answered non-JSON)`);
  }
  if (!res.ok) {
    const msg = (data as { errors?: string[] })?.errors?.join('; ') ?? `HTTP ${res.status}`;
    if (res.status === 404) throw new NotFoundError(msg);
    if (res.status === 400) throw new UsageError(msg);
    throw new LocalError(`sandbox refused: ${msg}`);
  }
  return data as T;
}
