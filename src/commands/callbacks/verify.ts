// `assess callbacks verify [FILE|-] --secret-file F`: checks Standard Webhooks signatures of
// stored requests offline — captured requests (one JSON object {headers, body}, or one per line),
// or with --inbox what `callbacks listen` stored (what the service sent there is unsigned: that
// is said as such, not blamed on the secret). The timestamp must be within
// --tolerance of when the request was received (its receivedAt; now when absent); signatures
// are compared in constant time. Exit 0 when every request verifies, 1 otherwise.
import * as z from 'zod/mini';
import { fieldsOf } from '../../cli/json-fields.js';
import { defineCommand, arg, flag } from '../../cli/command.js';
import { configDir } from '../../config/store.js';
import { OutcomeError, UsageError } from '../../errors.js';
import { Printer } from '../../output/printer.js';
import { durationArg, fmt } from '../../util/duration.js';
import { readInputText } from '../../util/small-file.js';
import { timeArg } from '../../util/time.js';
import { STORE_FLAG, callbacksStorePath, openInbox } from './shared/open-store.js';
import type { Context } from '../../context.js';

/** An inbox holds every notification received: larger than any other input file, still capped. */
const INBOX_MAX_BYTES = 256 * 1024 * 1024;

const COLUMNS = [
  { key: 'id', header: 'Webhook id', priority: 5 },
  { key: 'invitationId', header: 'Invitation', priority: 1, kind: 'id' },
  { key: 'status', header: 'Status', priority: 4, kind: 'status' },
  { key: 'valid', header: 'Valid', priority: 2 },
  { key: 'reason', header: 'Reason', priority: 3 },
] as const;
const FIELDS = fieldsOf(COLUMNS);

interface StoredRequest {
  headers: Record<string, string>;
  body: Buffer;
  at: Date;
  invitationId: string | null;
  status: string | null;
}

export default defineCommand({
  name: 'verify',
  args: {
    file: arg({ optional: true, stdin: ['-'] }, () => z._default(z.string().check(z.minLength(1)), '-')),
  },
  description:
    'Check the Standard Webhooks signatures (webhook-id, webhook-timestamp, webhook-signature: HMAC-SHA256 of id.timestamp.body with the secret) of stored requests — an inbox, or one {headers, body} JSON — offline',
  examples: [
    'assess callbacks verify received.ndjson --secret-file webhook.secret',
    'ASSESS_WEBHOOK_SECRET="$(cat webhook.secret)" assess callbacks verify request.json --tolerance 10m',
  ],
  flags: {
    secretFile: flag(
      'the signing secret (default: ASSESS_WEBHOOK_SECRET, else the one kept per profile)',
      { value: 'file' },
      () => z.optional(z.string().check(z.minLength(1, 'must name a file'))),
    ),
    inbox: flag("verify what callbacks listen stored (the profile's store, or --store FILE) instead of a file", () =>
      z.optional(z.boolean()),
    ),
    ...STORE_FLAG,
    tolerance: flag(
      'largest allowed distance between webhook-timestamp and the time received, or --at (0 = no check)',
      { value: 'duration', default: '5m' },
      () => durationArg('5m', 0, 365 * 86_400_000),
    ),
    at: flag(
      'check the timestamps against this time instead of when each request was received (now for a capture without receivedAt)',
      { value: 'T' },
      () => z.optional(timeArg('past')),
    ),
  },
  jsonFields: FIELDS,
  async run(ctx, input) {
    const { resolveSecret, verify } = await import('./shared/signing.js');
    const secretOf = () =>
      resolveSecret({
        secretFile: input.secretFile,
        env: ctx.env,
        configDir: configDir(ctx.env),
        profile: ctx.globals.profile,
        create: false,
        secrets: ctx.secrets,
      });
    const given = input.secretFile ? await secretOf() : undefined; // a flag is checked before anything else
    const fromStore = input.inbox || input.store !== undefined;
    if (fromStore && input.file !== '-')
      throw new UsageError('<file>: give a file or --inbox, not both', 'e.g. assess callbacks verify --inbox');
    const where = fromStore ? callbacksStorePath(ctx, input.store) : input.file === '-' ? 'standard input' : input.file;
    const read = await bodyReader();
    const parsed = fromStore
      ? await storedRequests(ctx, input.store)
      : parseStored(
          await readInputText(input.file, {
            label: '<file>',
            maxBytes: INBOX_MAX_BYTES,
            stdin: ctx.io.stdin,
            signal: ctx.signal,
          }),
          input.file,
          ctx.now(),
          read,
        );
    // --at: one reference time for every request (an old capture checked at its own time)
    const requests = input.at ? parsed.map((r) => ({ ...r, at: new Date(input.at!) })) : parsed;
    const unsigned = requests.filter((r) => !r.headers['webhook-signature'] && !r.headers['webhook-id']);
    if (unsigned.length === requests.length)
      throw new OutcomeError(
        `these were received unsigned: none of the ${requests.length} request(s) in ${where} carries webhook-id or webhook-signature, so there is nothing to verify`,
        'the service does not sign its notifications; `callbacks listen --forward-to URL --sign` signs what it forwards, and the receiving application verifies those',
      );
    const { secret } = given ?? (await secretOf());
    const rows = requests.map((r) => {
      if (unsigned.includes(r))
        return {
          id: null,
          invitationId: r.invitationId,
          status: r.status,
          valid: false,
          reason: 'received unsigned (no webhook-id or webhook-signature)',
        };
      const v = verify(secret, r.headers, r.body, r.at, input.tolerance / 1000);
      return {
        id: r.headers['webhook-id'] ?? null,
        invitationId: r.invitationId,
        status: r.status,
        valid: v.ok,
        reason: v.ok ? null : v.reason,
      };
    });
    await new Printer(ctx).list(rows, {
      columns: COLUMNS,
      fields: FIELDS,
    });
    const bad = rows.filter((r) => !r.valid);
    if (bad.length) {
      const onlyUnsigned = bad.every((r) => r.reason?.startsWith('received unsigned'));
      const onlyTime = bad.every((r) => r.reason?.startsWith('webhook-timestamp is'));
      // a capture older than the tolerance: say so, and whether the signatures match at its own time
      const signedRight =
        onlyTime && requests.every((r) => unsigned.includes(r) || verify(secret, r.headers, r.body, r.at, 0).ok);
      throw new OutcomeError(
        `${bad.length} of ${rows.length} request(s) do not verify${bad[0]!.reason ? `: ${bad[0]!.reason}` : ''}.`,
        onlyUnsigned
          ? 'those were received unsigned; the signed ones verify'
          : onlyTime
            ? `the timestamps are outside --tolerance ${fmt(input.tolerance)}${signedRight ? ' (the signatures themselves match)' : ''}: check a capture at its own time with --at T, or skip the time check with --tolerance 0`
            : 'check the secret (--secret-file) and that the body was not changed; the reason column says which check failed',
      );
    }
    const window = input.tolerance
      ? `, and its webhook-timestamp is within ${fmt(input.tolerance)} of when it was received`
      : '';
    ctx.info(
      `${rows.length} request(s) verified: each webhook-signature is the HMAC-SHA256 of "webhook-id.webhook-timestamp.body" with the secret${window}.`,
    );
  },
});

/** What `callbacks listen` stored, as requests (quarantined bodies too: they may be signed). */
async function storedRequests(ctx: Context, given: string | undefined): Promise<StoredRequest[]> {
  const inbox = await openInbox(ctx, given, { readOnly: true });
  const { notifications } = await import('./shared/inbox-read.js');
  const out = inbox
    ? [...notifications(inbox.store)].map((r) => ({
        headers: r.headers,
        body: r.body,
        at: new Date(r.receivedAt),
        invitationId: r.invitationId,
        status: r.status,
      }))
    : [];
  if (!out.length)
    throw new UsageError(
      `--inbox: no stored request in ${callbacksStorePath(ctx, given)}`,
      'callbacks listen stores them',
    );
  return out;
}

type BodyReader = (body: Buffer) => { invitationId: string | null; status: string | null };

/** What the tolerant reader makes of a captured body (its invitation and status). */
async function bodyReader(): Promise<BodyReader> {
  const { readCallback } = await import('../../api/read/callback.js');
  const { parseJsonLossless } = await import('../../api/read/body.js');
  return (body) => {
    try {
      const r = readCallback(parseJsonLossless(body.toString('utf8')));
      return { invitationId: r.invitationId, status: r.status };
    } catch {
      return { invitationId: null, status: null };
    }
  };
}

/** One JSON object, or NDJSON lines of {headers, body} (records with another `type` are skipped). */
export function parseStored(text: string, file: string, now: Date, read: BodyReader): StoredRequest[] {
  const values: unknown[] = [];
  const trimmed = text.trim();
  if (!trimmed) throw new UsageError(`<file>: ${file} is empty`);
  try {
    values.push(JSON.parse(trimmed));
  } catch {
    trimmed.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      try {
        values.push(JSON.parse(line));
      } catch {
        throw new UsageError(`<file>: line ${i + 1} of ${file} is not JSON`);
      }
    });
  }
  const out: StoredRequest[] = [];
  for (const v of values) {
    const o = v as {
      type?: string;
      headers?: Record<string, string>;
      body?: unknown;
      bodyBase64?: string;
      receivedAt?: string;
      invitationId?: string;
      status?: string | null;
    };
    if (o && typeof o.type === 'string' && o.type !== 'notification' && o.type !== 'quarantined') continue; // the delivery log: no request
    if (
      !o ||
      typeof o !== 'object' ||
      !o.headers ||
      typeof o.headers !== 'object' ||
      (typeof o.body !== 'string' && typeof o.bodyBase64 !== 'string')
    )
      throw new UsageError(
        `<file>: ${file} holds something that is not a stored request`,
        'expected {"headers": {…}, "body": "<the raw body>"} or inbox records',
      );
    const headers = Object.fromEntries(Object.entries(o.headers).map(([k, val]) => [k.toLowerCase(), String(val)]));
    const body =
      typeof o.bodyBase64 === 'string' ? Buffer.from(o.bodyBase64, 'base64') : Buffer.from(o.body as string, 'utf8');
    const at = o.receivedAt && !Number.isNaN(Date.parse(o.receivedAt)) ? new Date(o.receivedAt) : now;
    const fields =
      o.invitationId === undefined ? read(body) : { invitationId: o.invitationId, status: o.status ?? null };
    out.push({ headers, body, at, ...fields });
  }
  if (!out.length) throw new UsageError(`<file>: no stored request in ${file}`);
  return out;
}
