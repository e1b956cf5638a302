// Where the key and base URLs come from. Precedence (GUIDE §3), highest first:
// --api-key-file F / --key-stdin → ASSESS_API_KEY → the profile's stored key.
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import type { Profile } from './profile.js';
import { readSmallFile, warnIfReadableByOthers } from '../util/small-file.js';
import type { KeySource } from '../api/connection.js';

export { requireKey, type Connection, type KeySource } from '../api/connection.js';

/** Placeholder production addresses; set the real ones with `assess auth login --base-url`. */

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
