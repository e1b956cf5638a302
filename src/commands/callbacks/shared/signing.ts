// Standard Webhooks signatures (https://www.standardwebhooks.com): the headers `webhook-id`,
// `webhook-timestamp` (Unix seconds) and `webhook-signature` = `v1,` + base64 of
// HMAC-SHA256(secret, `${id}.${timestamp}.${body}`). The secret is base64, with or without the
// `whsec_` prefix, exactly as the Standard Webhooks libraries read it (its bytes are the key).
// node:crypto only: the scheme is a few lines, and timingSafeEqual gives the constant-time compare.
import type { Secrets } from '../../../api/redact.js';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { configDir } from '../../../config/store.js';
import { UsageError } from '../../../errors.js';
import { makeDirs } from '../../../util/private-dir.js';

export const SECRET_PREFIX = 'whsec_';
export const DEFAULT_TOLERANCE_S = 5 * 60;

export function secretKey(secret: string): Buffer {
  const s = secret.trim();
  return Buffer.from(s.startsWith(SECRET_PREFIX) ? s.slice(SECRET_PREFIX.length) : s, 'base64');
}

export function sign(secret: string, id: string, timestamp: number, body: Buffer | string): string {
  const mac = createHmac('sha256', secretKey(secret));
  mac.update(`${id}.${timestamp}.`);
  mac.update(body);
  return `v1,${mac.digest('base64')}`;
}

export function signatureHeaders(secret: string, id: string, body: Buffer, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(secret, id, timestamp, body),
  };
}

export type VerifyResult = { ok: true } | { ok: false; reason: string };

/**
 * Checks a request's headers against its body: every `v1,` signature in the (space separated)
 * header is compared in constant time; the timestamp must be within `toleranceS` of `now`.
 */
export function verify(
  secret: string,
  headers: Record<string, string | undefined>,
  body: Buffer,
  now: Date,
  toleranceS = DEFAULT_TOLERANCE_S,
): VerifyResult {
  const id = headers['webhook-id'];
  const ts = headers['webhook-timestamp'];
  const sig = headers['webhook-signature'];
  if (!id || !ts || !sig)
    return {
      ok: false,
      reason: `missing header ${!id ? 'webhook-id' : !ts ? 'webhook-timestamp' : 'webhook-signature'}`,
    };
  if (!/^\d{1,12}$/.test(ts)) return { ok: false, reason: `webhook-timestamp '${ts}' is not Unix seconds` };
  const skew = Math.abs(now.getTime() / 1000 - Number(ts));
  if (toleranceS > 0 && skew > toleranceS)
    return {
      ok: false,
      reason:
        `webhook-timestamp is ${Math.round(skew)} s away from ` +
        `${toleranceS === 0 ? 'the reference time' : 'when it was received'} (tolerance ${toleranceS} s)`,
    };
  const expected = Buffer.from(sign(secret, id, Number(ts), body).slice(3), 'base64');
  for (const part of sig.split(' ')) {
    const [version, value] = part.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const given = Buffer.from(value, 'base64');
    // only the signature itself: base64 that decodes leniently past junk is refused, as the libraries do
    if (given.toString('base64') !== value) continue;
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true };
  }
  return { ok: false, reason: 'no signature matches' };
}

export const generateSecret = () => `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;

export function defaultSecretPath(configDir: string, profile: string): string {
  return join(configDir, 'webhook-secrets', `${profile}.secret`);
}

/**
 * The signing secret: --secret-file, else ASSESS_WEBHOOK_SECRET, else the profile's stored one
 * (generated on first use, written 0600 atomically). `created` says a new one was made.
 */
export async function resolveSecret(opts: {
  secretFile?: string;
  env: Record<string, string | undefined>;
  configDir: string;
  profile: string;
  create: boolean;
  /** The run's secrets: the signing secret is masked in all the run shows from now on. */
  secrets?: Secrets;
}): Promise<{ secret: string; source: string; created: boolean }> {
  const found = await findSecret(opts);
  opts.secrets?.add(found.secret);
  return found;
}

/** The secret a command reads and never makes (replay, verify): --secret-file, else as resolveSecret. */
export function existingSecret(
  ctx: { env: Record<string, string | undefined>; globals: { profile: string }; secrets: Secrets },
  secretFile: string | undefined,
): Promise<{ secret: string; source: string; created: boolean }> {
  const { env, secrets } = ctx;
  return resolveSecret({
    secretFile,
    env,
    configDir: configDir(env),
    profile: ctx.globals.profile,
    create: false,
    secrets,
  });
}

async function findSecret(opts: Parameters<typeof resolveSecret>[0]) {
  if (opts.secretFile) return { secret: readSecretFile(opts.secretFile), source: opts.secretFile, created: false };
  const fromEnv = opts.env.ASSESS_WEBHOOK_SECRET?.trim();
  if (fromEnv) return { secret: fromEnv, source: 'ASSESS_WEBHOOK_SECRET', created: false };
  const path = defaultSecretPath(opts.configDir, opts.profile);
  if (existsSync(path)) return { secret: readSecretFile(path), source: path, created: false };
  if (!opts.create)
    throw new UsageError(
      '--secret-file: no signing secret given',
      'give --secret-file FILE or set ASSESS_WEBHOOK_SECRET',
    );
  const secret = generateSecret();
  makeDirs(dirname(path));
  const { writeFileAtomic } = await import('../../../files/atomic.js');
  writeFileAtomic(path, `${secret}\n`);
  chmodSync(path, 0o600);
  return { secret, source: path, created: true };
}

function readSecretFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (err) {
    throw new UsageError(
      `--secret-file: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  if (!text)
    throw new UsageError(
      `--secret-file: ${path} is empty`,
      'it holds the secret, e.g. whsec_… (assess callbacks listen --sign --print-secret makes one)',
    );
  if (text.startsWith(SECRET_PREFIX) && secretKey(text).length < 16)
    throw new UsageError(
      `--secret-file: ${path} does not hold a valid whsec_ secret (base64 of at least 16 bytes after whsec_)`,
    );
  return text;
}
