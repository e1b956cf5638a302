// Which failures of a request happened on this machine rather than on the network: they are
// neither retried nor called network errors (src/api/transport.ts).
import { LocalError } from '../errors.js';
import { NetworkError } from './errors.js';

/**
 * Every failure of the network (a socket, DNS, TLS, the HTTP parser, undici's own) carries a
 * code; an error without one — `WebAssembly is not defined` under `node --jitless`, a TypeError
 * — or one that says the request itself was malformed, happened on this machine: repeating it
 * changes nothing, and calling it a network error sends people to check the wrong thing.
 */
const LOCAL_CODES = new Set([
  'UND_ERR_INVALID_ARG',
  'UND_ERR_NOT_SUPPORTED',
  'ERR_INVALID_ARG_TYPE',
  'ERR_INVALID_ARG_VALUE',
  'ERR_INVALID_URL',
  'ERR_INVALID_CHAR',
]);

export const NO_WASM = new Error(
  'WebAssembly is not available in this Node.js (is it run with --jitless?), and the HTTP client needs it',
);

export function isLocalFailure(err: unknown): boolean {
  if (err instanceof NetworkError) return false;
  const code = errorCode(err);
  return code === undefined || LOCAL_CODES.has(code);
}

export function localFailure(method: string, url: string, err: unknown, scrub: (s: string) => string): LocalError {
  const why = scrub(err instanceof Error ? err.message : String(err));
  return new LocalError(
    `${method} ${url} could not be made on this machine: ${why} (not a network error; not retried)`,
    'check how Node.js runs here (NODE_OPTIONS, flags such as --jitless), or run with --debug and report it',
  );
}

export function errorCode(err: unknown): string | undefined {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code ?? e?.cause?.code;
}
