// `--max-size SIZE`: the most a download (report PDFs, `assess api`) may be, counted as it is
// written, after decoding; over it the download stops, its partial file is removed, exit 1.
import * as z from 'zod/mini';
import { flag } from '../../cli/command.js';
import { readAs } from '../../util/read-as.js';

/** A report PDF is a few MiB; 50 MiB leaves room for pictures and stops an endless one early. */
export const DEFAULT_PDF_MAX_BYTES = 50 * 1024 * 1024;

const UNITS: Record<string, number> = { '': 2 ** 20, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 };
const MAX = 64 * 2 ** 30;

/** `50MiB`, `200M`, `1G`, `512k`, or a bare number of MiB: bytes, from 1 KiB to 64 GiB. */
export function sizeBytes(text: string): number | undefined {
  const m = /^\s*(\d{1,12})(?:\s*([kmg])(?:i?b)?)?\s*$/i.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]) * UNITS[(m[2] ?? '').toLowerCase()]!;
  return n >= 1024 && n <= MAX ? n : undefined;
}

/** The flag; `what` says what it caps, `dflt` its default, in the help. */
export const maxSizeFlag = (what: string, dflt: string) =>
  flag(`${what}, e.g. 200MiB or 1G (default ${dflt})`, { value: 'size' }, () =>
    z.optional(
      readAs(
        (text, refuse) =>
          sizeBytes(text) ?? refuse('must be a size from 1KiB to 64GiB, e.g. --max-size 200MiB (a bare number is MiB)'),
      ),
    ),
  );

/** How the cap's error says to raise it. */
export const RAISE_MAX_SIZE = '--max-size SIZE (e.g. --max-size 200MiB)';
