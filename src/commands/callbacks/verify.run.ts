// `callbacks verify`: checks Standard Webhooks signatures of stored requests offline — captured
// requests (one JSON object {headers, body}, or one per line), or with --inbox what `callbacks
// listen` stored (what the service sent there is unsigned: that is said as such, not blamed on the
// secret). The timestamp must be within --tolerance of when the request was received (its
// receivedAt; now when absent); signatures are compared in constant time. Exit 0 when every request
// verifies, 1 otherwise.
import type { InputOfCommand, Run } from '../../cli/command.js';
import type { Context } from '../../context.js';
import { OutcomeError, UsageError } from '../../errors.js';
import { Printer } from '../../output/printer.js';
import { fmt } from '../../util/duration.js';
import { plural } from '../../util/plural.js';
import { readInputText } from '../../util/small-file.js';
import type decl from './verify.js';
import { COLUMNS, FIELDS } from './verify.js';
import { callbacksStorePath, openInbox } from './shared/open-store.js';
import type { VerifyResult } from './shared/signing.js';

type Input = InputOfCommand<typeof decl>;

/** An inbox holds every notification received: larger than any other input file, still capped. */
const INBOX_MAX_BYTES = 256 * 1024 * 1024;

interface StoredRequest {
  headers: Record<string, string>;
  body: Buffer;
  at: Date;
  invitationId: string | null;
  status: string | null;
}

/** A request's signature checked with the secret, its timestamp within `toleranceS` (0: not checked). */
type Check = (r: StoredRequest, toleranceS: number) => VerifyResult;
type Row = {
  id: string | null;
  invitationId: string | null;
  status: string | null;
  valid: boolean;
  reason: string | null;
};

export const run: Run<typeof decl> = async (ctx, input) => {
  const { existingSecret, verify } = await import('./shared/signing.js');
  const secretOf = () => existingSecret(ctx, input.secretFile);
  const given = input.secretFile ? await secretOf() : undefined; // a flag is checked before anything else
  const { requests, where } = await readRequests(ctx, input);
  const unsigned = requests.filter((r) => !r.headers['webhook-signature'] && !r.headers['webhook-id']);
  if (unsigned.length === requests.length)
    throw new OutcomeError(
      `these were received unsigned: none of the ${plural(requests.length, 'request')} in ${where} carries ` +
        `webhook-id or webhook-signature, so there is nothing to verify`,
      'the service does not sign its notifications; `callbacks listen --forward-to URL --sign` signs what it ' +
        'forwards, and the receiving application verifies those',
    );
  const { secret } = given ?? (await secretOf());
  const check: Check = (r, toleranceS) => verify(secret, r.headers, r.body, r.at, toleranceS);
  const rows = requests.map((r) => rowOf(r, unsigned.includes(r), check, input.tolerance / 1000));
  await new Printer(ctx).list(rows, {
    columns: COLUMNS,
    fields: FIELDS,
  });
  const bad = rows.filter((r) => !r.valid);
  if (bad.length)
    throw notVerified(bad, rows.length, input.tolerance, () =>
      requests.every((r) => unsigned.includes(r) || check(r, 0).ok),
    );
  const window = input.tolerance
    ? `, and its webhook-timestamp is within ${fmt(input.tolerance)} of when it was received`
    : '';
  ctx.info(
    `${plural(rows.length, 'request')} verified: each webhook-signature is the HMAC-SHA256 of ` +
      `"webhook-id.webhook-timestamp.body" with the secret${window}.`,
  );
};

/** The requests to check (from the file, standard input or the store), and where they came from. */
async function readRequests(ctx: Context, input: Input): Promise<{ requests: StoredRequest[]; where: string }> {
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
  return { requests, where };
}

function rowOf(r: StoredRequest, unsigned: boolean, check: Check, toleranceS: number): Row {
  if (unsigned)
    return {
      id: null,
      invitationId: r.invitationId,
      status: r.status,
      valid: false,
      reason: 'received unsigned (no webhook-id or webhook-signature)',
    };
  const v = check(r, toleranceS);
  return {
    id: r.headers['webhook-id'] ?? null,
    invitationId: r.invitationId,
    status: r.status,
    valid: v.ok,
    reason: v.ok ? null : v.reason,
  };
}

/** Exit 1 for the rows that do not verify, with what to check; `signedRight` only for timestamps. */
function notVerified(bad: Row[], total: number, toleranceMs: number, signedRight: () => boolean): OutcomeError {
  const onlyUnsigned = bad.every((r) => r.reason?.startsWith('received unsigned'));
  const onlyTime = bad.every((r) => r.reason?.startsWith('webhook-timestamp is'));
  // a capture older than the tolerance: say so, and whether the signatures match at its own time
  const matches = onlyTime && signedRight();
  return new OutcomeError(
    `${bad.length} of ${plural(total, 'request')} ${bad.length === 1 ? 'does' : 'do'} not verify` +
      (bad[0]!.reason ? `: ${bad[0]!.reason}.` : '.'),
    onlyUnsigned
      ? 'those were received unsigned; the signed ones verify'
      : onlyTime
        ? `the timestamps are outside --tolerance ` +
          `${fmt(toleranceMs)}${matches ? ' (the signatures themselves match)' : ''}: check a capture at its own ` +
          `time with --at T, or skip the time check with --tolerance 0`
        : 'check the secret (--secret-file) and that the body was not changed; the reason column says which check ' +
          'failed',
  );
}

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
      const value = parseJsonLossless(body.toString('utf8'));
      // a capture that stored the notification as a JSON string: the string is read as its JSON
      const r = readCallback(typeof value === 'string' ? parseJsonLossless(value) : value);
      return { invitationId: r.invitationId, status: r.status };
    } catch {
      return { invitationId: null, status: null };
    }
  };
}

/** One JSON object, or NDJSON lines of {headers, body} (records with another `type` are skipped). */
function parseStored(text: string, file: string, now: Date, read: BodyReader): StoredRequest[] {
  const values: unknown[] = [];
  const trimmed = text.trim();
  if (!trimmed && file === '-')
    throw new UsageError(
      '<file>: standard input was empty (with no file named, verify reads it)',
      'give a capture of {headers, body} JSON lines: assess callbacks verify capture.ndjson --secret-file F ' +
        "(or pipe it in); --inbox verifies what 'callbacks listen' stored",
    );
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
  const out = values.flatMap((v) => requestOf(v, file, now, read));
  if (!out.length) throw new UsageError(`<file>: no stored request in ${file}`);
  return out;
}

/** One parsed value as a request; none for a record of another `type` (the delivery log). */
function requestOf(v: unknown, file: string, now: Date, read: BodyReader): StoredRequest[] {
  const o = v as {
    type?: string;
    headers?: Record<string, string>;
    body?: unknown;
    bodyBase64?: string;
    receivedAt?: string;
    invitationId?: string;
    status?: string | null;
  };
  // the delivery log: no request
  if (o && typeof o.type === 'string' && o.type !== 'notification' && o.type !== 'quarantined') return [];
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
  // the record's own fields where it has them (an inbox record), else the body's
  const fromBody = o.invitationId == null || o.status == null ? read(body) : undefined;
  const fields = {
    invitationId: o.invitationId ?? fromBody?.invitationId ?? null,
    status: o.status ?? fromBody?.status ?? null,
  };
  return [{ headers, body, at, ...fields }];
}
