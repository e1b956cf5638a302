// A cap on the size of an answer read into memory (a JSON answer, an error body): a runaway or
// hostile server cannot make the CLI hold gigabytes, or download them again on a retry. Over
// the cap: AnswerTooLargeError (exit 1), nothing retried. Streamed PDFs are not read this way.
import { UsageError } from '../errors.js';
import { AnswerTooLargeError, type RequestInfo } from './errors.js';

export const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;

interface Body extends AsyncIterable<Uint8Array> {
  text(): Promise<string>;
  destroy(err?: Error): unknown;
}

/** The content-length an answer announced, or undefined. */
function declaredLength(headers: Record<string, string | string[] | undefined>): number | undefined {
  const v = headers['content-length'];
  const n = Number(Array.isArray(v) ? v[0] : v);
  return v !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** The whole answer as bytes, refused (AnswerTooLargeError) past `limit` bytes. */
export async function readAnswerBytes(
  res: { body: Body; headers: Record<string, string | string[] | undefined>; request: RequestInfo },
  limit: number,
): Promise<Buffer> {
  const declared = declaredLength(res.headers);
  if (declared !== undefined && declared > limit) {
    res.body.destroy();
    throw new AnswerTooLargeError(res.request, limit, declared);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const c of res.body) {
    size += c.length;
    if (size > limit) {
      res.body.destroy();
      throw new AnswerTooLargeError(res.request, limit);
    }
    chunks.push(c);
  }
  return Buffer.concat(chunks, size);
}

const utf8 = new TextDecoder();

/**
 * The answer as text (UTF-8, a BOM dropped, like undici's text()). An answer that announces a
 * length within the cap is read by undici itself (its framing stops at that length).
 */
export async function readAnswerText(
  res: { body: Body; headers: Record<string, string | string[] | undefined>; request: RequestInfo },
  limit: number,
): Promise<string> {
  const declared = declaredLength(res.headers);
  if (declared !== undefined && declared <= limit) return res.body.text();
  return utf8.decode(await readAnswerBytes(res, limit));
}

/**
 * The cap in bytes: ASSESS_MAX_ANSWER_MIB, else the profile's `max-answer-mib`, else 64 MiB. A
 * bad value in the environment is a usage error naming it (exit 2).
 */
export function answerCapBytes(env: Record<string, string | undefined>, profileMib?: number): number {
  const raw = env.ASSESS_MAX_ANSWER_MIB?.trim();
  if (raw) {
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < 1 || n > 16384)
      throw new UsageError(
        `ASSESS_MAX_ANSWER_MIB: '${raw}' is not a whole number of MiB from 1 to 16384`,
        'e.g. ASSESS_MAX_ANSWER_MIB=256, or unset it for 64',
      );
    return n * 1024 * 1024;
  }
  return profileMib ? profileMib * 1024 * 1024 : DEFAULT_MAX_ANSWER_BYTES;
}
