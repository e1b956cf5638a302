// Reading an answer's body: decoded per its Content-Encoding (gzip, deflate, br, zstd where Node
// has it), within a cap on the decoded size, so that neither a runaway server nor a compression
// bomb makes the CLI hold gigabytes. Over the cap: AnswerTooLargeError (exit 1), nothing retried.
// A body that ends before its framing does (shorter than its Content-Length, compressed data cut
// short) is "cut off": a NetworkError (exit 6). Downloads stream the same decoded body (`download`).
import { pipeline, Readable, type Transform } from 'node:stream';
import * as zlib from 'node:zlib';
import { UsageError } from '../errors.js';
import { AnswerTooLargeError, NetworkError, UnexpectedAnswerError, type RequestInfo } from './errors.js';

export const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;

type Headers = Record<string, string | string[] | undefined>;

export interface BodySource {
  body: Readable & { destroy(err?: Error): unknown };
  headers: Headers;
  request: RequestInfo;
}

/** How to raise a cap, for its error: the answer cap's settings, or a download's flag. */
export interface CapNames {
  raise?: string;
}

export const firstHeader = (h: Headers, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The content-length an answer announced, or undefined. */
export function declaredLength(headers: Headers): number | undefined {
  const v = firstHeader(headers, 'content-length');
  const n = Number(v);
  return v !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** The codings of Content-Encoding in the order they were applied (`identity` left out). */
function codings(headers: Headers): string[] {
  return (firstHeader(headers, 'content-encoding') ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
}

function decoder(coding: string): Transform | undefined {
  if (coding === 'gzip' || coding === 'x-gzip' || coding === 'deflate') return zlib.createUnzip(); // both headers
  if (coding === 'br') return zlib.createBrotliDecompress();
  const zstd = (zlib as { createZstdDecompress?: () => Transform }).createZstdDecompress;
  if (coding === 'zstd' && zstd) return zstd();
  return undefined;
}

/**
 * The body decoded and capped, as a stream whose errors say what went wrong in our terms: too
 * large, cut off (exit 6), or not decodable (exit 1). An announced length over the cap is
 * refused before anything is read; so is a coding this CLI cannot decode.
 */
export function decodedBody(res: BodySource, limit: number, names: CapNames = {}): Readable {
  return Readable.from(decodedChunks(res, limit, names), { objectMode: false });
}

/** decodedBody's chunks, without a stream around them (an answer read into memory). */
export function decodedChunks(res: BodySource, limit: number, names: CapNames = {}): AsyncGenerator<Buffer> {
  const list = codings(res.headers);
  const declared = declaredLength(res.headers);
  if (declared !== undefined && declared > limit && list.length === 0) {
    res.body.destroy();
    throw new AnswerTooLargeError(res.request, limit, declared, names.raise);
  }
  const decoders: Transform[] = [];
  for (const c of [...list].reverse()) {
    const d = decoder(c);
    if (!d) {
      res.body.destroy();
      throw new UnexpectedAnswerError(
        `${shownRequest(res.request)}: the answer is encoded as '${c}', which this CLI cannot decode`,
        res.request,
        'a proxy may be re-encoding answers; check the base URL and the proxy settings',
      );
    }
    decoders.push(d);
  }
  return decoded(res, decoders, limit, names, list);
}

async function* decoded(
  res: BodySource,
  decoders: Transform[],
  limit: number,
  names: CapNames,
  list: string[],
): AsyncGenerator<Buffer> {
  let raw = 0;
  async function* source() {
    for await (const c of res.body) {
      raw += (c as Buffer).length;
      yield c as Buffer;
    }
  }
  // each pipeline passes an error on to the next stream, so the last one ends with it
  let tail: AsyncIterable<Buffer> = source();
  if (decoders.length) {
    let stage: Readable = Readable.from(tail);
    for (const d of decoders) stage = pipeline(stage, d, () => undefined);
    tail = stage;
  }
  let size = 0;
  try {
    for await (const c of tail) {
      size += c.length;
      if (size > limit) throw new AnswerTooLargeError(res.request, limit, undefined, names.raise);
      yield c;
    }
  } catch (err) {
    // gzip's "unexpected end of file" on nothing at all: an empty body that names a coding
    if (raw === 0 && isZlib(err) && (err as NodeJS.ErrnoException).code === 'Z_BUF_ERROR') return;
    throw bodyError(err, res, list);
  } finally {
    res.body.destroy();
    for (const d of decoders) d.destroy();
  }
}

const isZlib = (err: unknown) => {
  const e = err as { errno?: unknown; code?: string };
  return typeof e.errno === 'number' && (e.code?.startsWith('Z_') || e.code?.startsWith('ERR_')) === true;
};

/** An error of reading a body, in our terms (others, e.g. a reset, pass as they are). */
function bodyError(err: unknown, res: BodySource, list: string[]): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  const what = shownRequest(res.request);
  if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
    const n = declaredLength(res.headers);
    return cutOff(res.request, `shorter than the ${n ?? 'announced'} bytes its Content-Length said`);
  }
  if (!isZlib(err)) return err;
  if (code === 'Z_BUF_ERROR') return cutOff(res.request, `its ${list.join(', ')} data ends early`);
  return new UnexpectedAnswerError(
    `${what}: the answer says it is ${list.join(', ')}-encoded but cannot be decoded (${(err as Error).message})`,
    res.request,
  );
}

/** An answer that ended before its framing did: a network failure (exit 6), retried where safe. */
export function cutOff(request: RequestInfo, why: string, attempts = 1): NetworkError {
  const err = new NetworkError(
    `${shownRequest(request)}: the answer was cut off (${why})`,
    request,
    'ASSESS_CUT_OFF',
    attempts,
  );
  err.hint = 'retry; if it keeps happening, something between here and the service (a proxy) cuts answers short';
  return err;
}

export const shownRequest = (r: RequestInfo) => `${r.method} ${r.url}`;

/** The whole answer as bytes, decoded, refused (AnswerTooLargeError) past `limit` decoded bytes. */
export async function readAnswerBytes(res: BodySource, limit: number, names: CapNames = {}): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of decodedChunks(res, limit, names)) {
    chunks.push(c);
    size += c.length;
  }
  return Buffer.concat(chunks, size);
}

const utf8 = new TextDecoder();

/** The answer as text (UTF-8, a BOM dropped, like undici's text()), decoded and within the cap. */
export async function readAnswerText(res: BodySource, limit: number): Promise<string> {
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
