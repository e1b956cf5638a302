// The bytes of an `invite --from-csv` file as UTF-8 text for csv-parse, whatever a spreadsheet
// saved: UTF-8 with or without a byte order mark, UTF-16 (LE or BE) with one; Excel's `sep=;`
// first line honoured; the delimiter (`,` `;` tab) sniffed from the header line. Other encodings
// with a mark (UTF-32) and UTF-16 without one are refused by name; bytes that are not UTF-8 in a
// file without a mark reach csv-parse as U+FFFD, and csv-rows.ts refuses those rows.
import type { Readable } from 'node:stream';
import { UsageError } from '../../../errors.js';

export type Delimiter = ',' | ';' | '\t';

export interface CsvSource {
  /** The text after the mark and any `sep=` line, as UTF-8 chunks. */
  chunks: AsyncGenerator<Buffer>;
  delimiter: string;
  /** Lines before the header (the `sep=` line): line numbers count them. */
  linesBefore: number;
}

/** Enough to see the header line of any sane file; a header longer than this is sniffed from its start. */
const HEAD_BYTES = 64 * 1024;
const SAVE_AS = 'save it as "CSV UTF-8" (Excel) or UTF-8';

/** Reads the start of `input`, decides how to read the rest. Errors of the stream are the caller's. */
export async function openCsvText(input: Readable, label: string): Promise<CsvSource> {
  const it = input[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const head: Buffer[] = [];
  let size = 0;
  let ended = false;
  while (size < HEAD_BYTES) {
    const r = await it.next();
    if (r.done) {
      ended = true;
      break;
    }
    const b = typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
    head.push(b);
    size += b.length;
    if (size >= 4 && b.includes(0x0a)) break;
  }
  const first = Buffer.concat(head);
  const decode = decoderFor(first, label);
  const text = decode.push(first.subarray(decode.skip));
  const sep = /^"?sep=([^\r\n"])"?[,;\t]*(\r?\n|$)/i.exec(text);
  const afterSep = sep ? text.slice(sep[0].length) : text;
  const delimiter = sep ? sep[1]! : sniffDelimiter(afterSep);
  const rest = async function* (): AsyncGenerator<Buffer> {
    if (ended) return;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
    }
  };
  async function* chunks(): AsyncGenerator<Buffer> {
    if (decode.utf8) {
      // csv-parse decodes UTF-8 itself: the bytes go on as they are (the sep= line is ASCII)
      yield first.subarray(decode.skip + (sep ? Buffer.byteLength(sep[0]) : 0));
      yield* rest();
      return;
    }
    if (afterSep) yield Buffer.from(afterSep);
    for await (const b of rest()) {
      const t = decode.push(b);
      if (t) yield Buffer.from(t);
    }
    const tail = decode.end();
    if (tail) yield Buffer.from(tail);
  }
  return { chunks: chunks(), delimiter, linesBefore: sep ? 1 : 0 };
}

interface Decoder {
  /** Bytes of the mark, not text. */
  skip: number;
  /** UTF-8: the bytes are passed on, only the head is decoded (to sniff it). */
  utf8?: boolean;
  push(b: Buffer): string;
  end(): string;
}

function decoderFor(first: Buffer, label: string): Decoder {
  const starts = (...bytes: number[]) => bytes.every((x, i) => first[i] === x);
  if (starts(0xff, 0xfe, 0, 0) || starts(0, 0, 0xfe, 0xff))
    throw new UsageError(`--from-csv: ${label} is UTF-32 text, which this command does not read`, SAVE_AS);
  if (starts(0xef, 0xbb, 0xbf)) return utf8(3);
  if (starts(0xff, 0xfe)) return utf16(2, false);
  if (starts(0xfe, 0xff)) return utf16(2, true);
  const sample = first.subarray(0, 1024);
  const odd = sample.filter((b, i) => i % 2 === 1 && b === 0).length;
  const even = sample.filter((b, i) => i % 2 === 0 && b === 0).length;
  if (sample.length >= 4 && Math.max(odd, even) >= sample.length / 4 && Math.min(odd, even) === 0)
    throw new UsageError(
      `--from-csv: ${label} looks like UTF-16 text without a byte order mark, which cannot be read safely`,
      SAVE_AS,
    );
  // a NUL in a name is that row's problem (csv-rows.ts); control bytes all over are no text
  const controls = sample.filter((b) => b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d).length;
  if (odd + even > 0 && controls * 10 >= sample.length)
    throw new UsageError(`--from-csv: ${label} is not a text file (it has NUL bytes)`, SAVE_AS);
  return utf8(0);
}

/** UTF-8 is passed on as it is (csv-parse decodes it); text only for the head, to sniff it. */
function utf8(skip: number): Decoder {
  const d = new TextDecoder('utf-8');
  return { skip, utf8: true, push: (b) => d.decode(b, { stream: true }), end: () => d.decode() };
}

/** UTF-16 decoded with Node's own UTF-16LE decoder (BE bytes swapped first: no ICU needed). */
function utf16(skip: number, bigEndian: boolean): Decoder {
  const d = new TextDecoder('utf-16le');
  let odd: number | undefined; // a BE byte left over from the last chunk
  const swap = (b: Buffer): Buffer => {
    const all = odd === undefined ? b : Buffer.concat([Buffer.from([odd]), b]);
    const even = all.length - (all.length % 2);
    odd = all.length % 2 ? all[all.length - 1] : undefined;
    const out = Buffer.from(all.subarray(0, even));
    return out.swap16();
  };
  return {
    skip,
    push: (b) => d.decode(bigEndian ? swap(b) : b, { stream: true }),
    end: () => d.decode(odd === undefined ? undefined : Buffer.from([odd])),
  };
}

/** The delimiter of the header line: the most frequent of `,` `;` tab outside quotes (`,` on a tie). */
export function sniffDelimiter(text: string): Delimiter {
  const counts: Record<Delimiter, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && (ch === ',' || ch === ';' || ch === '\t')) counts[ch]++;
  }
  return (Object.keys(counts) as Delimiter[]).reduce((best, d) => (counts[d] > counts[best] ? d : best), ',');
}
