// Where the key and base URLs come from. Precedence (GUIDE §3), highest first:
// --api-key-file F / --key-stdin → ASSESS_API_KEY → the profile's stored key.
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { AuthError, UsageError } from '../errors.js';
import type { Profile } from './keys.js';

/** Placeholder production addresses; set the real ones with `assess auth login --base-url`. */

export type KeySource = 'key-file' | 'stdin' | 'env' | 'profile' | 'sandbox';

export interface Connection {
  apiKey?: string;
  keySource?: KeySource;
  profile: string;
  baseUrl: string;
  baseUrlV2: string;
  timeoutMs: number;
  maxAttempts: number;
  sandbox: boolean;
  /** --sandbox without a shared sandbox running: it lives only as long as this command. */
  embedded?: boolean;
}

export interface KeyInputs {
  apiKeyFile?: string;
  keyStdin?: boolean;
  env: Record<string, string | undefined>;
  stdin?: Readable;
  profile: Profile;
}

export async function resolveKey(i: KeyInputs): Promise<{ apiKey?: string; keySource?: KeySource }> {
  if (i.apiKeyFile) return { apiKey: readKeyFile(i.apiKeyFile), keySource: 'key-file' };
  if (i.keyStdin) {
    if (!i.stdin) throw new UsageError('--key-stdin: no standard input to read the key from');
    return { apiKey: await readKeyStream(i.stdin), keySource: 'stdin' };
  }
  const envKey = i.env.ASSESS_API_KEY?.trim();
  if (envKey) return { apiKey: envKey, keySource: 'env' };
  if (i.profile.apiKey) return { apiKey: i.profile.apiKey, keySource: 'profile' };
  return {};
}

export function readKeyFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`--api-key-file: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return checkKey(text.trim(), '--api-key-file');
}

export async function readKeyStream(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c));
  return checkKey(Buffer.concat(chunks).toString('utf8').trim(), '--key-stdin');
}

function checkKey(key: string, flag: string): string {
  if (!key) throw new UsageError(`${flag}: the key is empty`);
  if (/\s/.test(key) || key.length > 512) throw new UsageError(`${flag}: that does not look like an API key (one line, no spaces)`);
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
