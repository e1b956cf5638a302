// What a client connects with: the service's addresses, the key and the limits of the run, as
// the CLI resolved them (src/config/credentials.ts, src/cli/context-factory.ts) or a caller of
// the library gives them.
import { AuthError, UsageError } from '../errors.js';

export type KeySource = 'key-file' | 'stdin' | 'env' | 'profile' | 'sandbox';

export interface Connection {
  apiKey?: string;
  keySource?: KeySource;
  profile: string;
  baseUrl: string;
  baseUrlV2: string;
  /** Where each base URL came from, for hints: 'ASSESS_BASE_URL', "config base-url (profile 'x')", '--base-url'. */
  baseUrlFrom?: string;
  baseUrlV2From?: string;
  /** `--timeout`: all the command may wait for the service, retries included (undefined: no limit). */
  timeoutMs?: number;
  /** `--try-timeout`: each try's limit for its whole answer. */
  tryTimeoutMs: number;
  maxAttempts: number;
  /** The largest answer read into memory (ASSESS_MAX_ANSWER_MIB, the profile's max-answer-mib; default 64 MiB). */
  maxAnswerBytes?: number;
  sandbox: boolean;
  /** The user opted in to sending the key over plain http:// to another machine. */
  insecureHttp?: boolean;
  /** --sandbox without a shared sandbox running: it lives only as long as this command. */
  embedded?: boolean;
  /**
   * Asked before each request of every client made from this connection (`assess mcp`'s dry run and read-only calls).
   */
  guard?: import('./transport-spec.js').SendGuard;
  /** Aborts every request of every client made from this connection (an `assess mcp` call cancelled). */
  signal?: AbortSignal;
}

const SOURCE_NAMES: Record<KeySource, string> = {
  'key-file': '--api-key-file',
  stdin: '--key-stdin',
  env: 'ASSESS_API_KEY',
  profile: 'the profile',
  sandbox: 'the sandbox',
};

export function requireKey(c: Connection): string {
  if (!c.apiKey) {
    throw new AuthError(
      `no API key for profile '${c.profile}'`,
      `run 'assess auth login${c.profile === 'default' ? '' : ` --profile ${c.profile}`}', set ASSESS_API_KEY, or ` +
        `pass --api-key-file F (use --sandbox to try the tool without one)`,
    );
  }
  // A header carries visible ASCII only: anything else (a pasted '…', a stray newline inside)
  // would fail deep in the HTTP client as if it were a network error.
  if (!/^[\x21-\x7e]+$/.test(c.apiKey))
    throw new UsageError(
      `the API key ${c.keySource ? `from ${SOURCE_NAMES[c.keySource]} ` : ''}contains characters an HTTP header ` +
        `cannot carry (keys are printable ASCII without spaces)`,
      'check the value: a placeholder such as … or a pasted line break is not a key',
    );
  return c.apiKey;
}
