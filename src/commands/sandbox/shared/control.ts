// A small client for the sandbox control API (/_sandbox/…): used by `assess sandbox …` against
// the embedded sandbox (--sandbox) or a running `assess sandbox serve` (--url / base-url).
import { NetworkError } from '../../../api/errors.js';
import type { Context } from '../../../context.js';
import { LocalError, NotFoundError, UsageError } from '../../../errors.js';

const NO_SANDBOX_HINT =
  "start one with 'assess sandbox start' and add --sandbox, or point --url at an 'assess sandbox serve'";

export async function sandboxUrl(ctx: Context, explicit?: string): Promise<string> {
  if (explicit) return explicit.replace(/\/+$/, '');
  return (await ctx.connection()).baseUrl;
}

export async function control<T>(
  ctx: Context,
  base: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  // --timeout bounds the whole exchange (headers and body), as it does the API client's: an
  // address that accepts and never answers must not hang the command.
  const timeoutMs = ctx.globals.timeoutMs ?? 30_000;
  const deadline = AbortSignal.timeout(timeoutMs);
  const url = `${base}/_sandbox${path}`;
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.any([ctx.signal, deadline]),
    });
    text = await res.text();
  } catch (err) {
    if (ctx.signal.aborted) throw err; // interrupted: the run says so (exit 130)
    const request = { method, url, operation: 'sandbox.control' };
    if (deadline.aborted)
      throw new NetworkError(
        `no answer from ${base} in ${timeoutMs / 1000} s (${method} /_sandbox${path})`,
        request,
        'ETIMEDOUT',
        1,
        true,
      );
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const e = new NetworkError(
      `no sandbox answering at ${base} (${cause?.code ?? cause?.message ?? (err as Error).message})`,
      request,
      cause?.code,
    );
    e.hint = NO_SANDBOX_HINT;
    throw e;
  }
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
