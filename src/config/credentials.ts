// Where the key and base URLs come from. Precedence (GUIDE §3), highest first:
// --api-key-file F / --key-stdin → ASSESS_API_KEY → the profile's stored key.
import type { Readable } from 'node:stream';
import { AuthError, UsageError } from '../errors.js';
import type { Profile } from './profile.js';
import { readSmallFile, warnIfReadableByOthers } from '../util/small-file.js';

/** Placeholder production addresses; set the real ones with `assess auth login --base-url`. */

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
  /** Asked before each request of every client made from this connection (`assess mcp`'s dry run and read-only calls). */
  guard?: import('../api/transport.js').SendGuard;
  /** Aborts every request of every client made from this connection (an `assess mcp` call cancelled). */
  signal?: AbortSignal;
}

export interface KeyInputs {
  apiKeyFile?: string;
  keyStdin?: boolean;
  env: Record<string, string | undefined>;
  stdin?: Readable;
  profile: Profile;
  /** Ctrl-C: ends the wait on an --api-key-file that is a FIFO nobody writes to. */
  signal?: AbortSignal;
  /** A key file other users can read is used, with a warning here. */
  warn?: (line: string) => void;
}

export async function resolveKey(i: KeyInputs): Promise<{ apiKey?: string; keySource?: KeySource }> {
  if (i.apiKeyFile)
    return {
      apiKey: await readKeyFile(i.apiKeyFile, {
        signal: i.signal ?? new AbortController().signal,
        warn: i.warn ?? (() => undefined),
      }),
      keySource: 'key-file',
    };
  if (i.keyStdin) {
    if (!i.stdin) throw new UsageError('--key-stdin: no standard input to read the key from');
    return { apiKey: await readKeyStream(i.stdin), keySource: 'stdin' };
  }
  const envKey = i.env.ASSESS_API_KEY?.trim();
  if (envKey) return { apiKey: envKey, keySource: 'env' };
  if (i.profile.apiKey) return { apiKey: i.profile.apiKey, keySource: 'profile' };
  return {};
}

/** A key is at most 512 characters: a file far larger is not a key file (and /dev/zero never ends). */
const KEY_FILE_MAX_BYTES = 64 * 1024;

export async function readKeyFile(
  path: string,
  o: { signal: AbortSignal; warn: (line: string) => void },
): Promise<string> {
  const file = await readSmallFile(path, {
    label: '--api-key-file',
    maxBytes: KEY_FILE_MAX_BYTES,
    instead: 'give a file holding only the key (chmod 600), or pipe the key with --key-stdin',
    fifo: { signal: o.signal },
  });
  const key = checkKey(file.text.trim(), '--api-key-file');
  warnIfReadableByOthers(path, file.mode, 'an API key', o.warn);
  return key;
}

export async function readKeyStream(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c));
  return checkKey(Buffer.concat(chunks).toString('utf8').trim(), '--key-stdin');
}

function checkKey(key: string, flag: string): string {
  if (!key) throw new UsageError(`${flag}: the key is empty`);
  if (/\s/.test(key) || key.length > 512)
    throw new UsageError(`${flag}: that does not look like an API key (one line, no spaces)`);
  return key;
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
      `run 'assess auth login${c.profile === 'default' ? '' : ` --profile ${c.profile}`}', set ASSESS_API_KEY, or pass --api-key-file F (use --sandbox to try the tool without one)`,
    );
  }
  // A header carries visible ASCII only: anything else (a pasted '…', a stray newline inside)
  // would fail deep in the HTTP client as if it were a network error.
  if (!/^[\x21-\x7e]+$/.test(c.apiKey))
    throw new UsageError(
      `the API key ${c.keySource ? `from ${SOURCE_NAMES[c.keySource]} ` : ''}contains characters an HTTP header cannot carry (keys are printable ASCII without spaces)`,
      'check the value: a placeholder such as … or a pasted line break is not a key',
    );
  return c.apiKey;
}
