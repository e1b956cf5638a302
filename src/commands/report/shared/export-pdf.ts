// One PDF of `report export`: downloaded to a temp file beside the target, then put in place.
// A file with the report's name that no run of this journal wrote (its item line carries
// `wrote`) is the user's: it is never replaced and never counted as exported. If its bytes are
// the report's own (a run killed between the rename and its journal row), it is kept as
// "existing"; otherwise the report goes beside it as "name (2).pdf" and the caller says so.
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { NetworkError, ResponseShapeError } from '../../../api/errors.js';
import { decide, type RetryOperation } from '../../../api/retry.js';
import type { V3Client } from '../../../api/v3.js';
import { tempPathFor } from '../../../files/atomic.js';
import { asFileError } from '../../../files/output-files.js';
import { UsageError } from '../../../errors.js';
import { FileSink } from '../../../util/write-all.js';
import { failUnlessOk, pdfBody, pdfGuard } from './pdf.js';
import { DEFAULT_PDF_MAX_BYTES } from '../../shared/max-size.js';

/** A report is a read: a body that breaks off is fetched again, up to this many times in all. */
const PDF_DOWNLOAD: RetryOperation = { repeat: 'read', maxAttempts: 4 };

export interface SavedPdf {
  name: string;
  outcome: 'saved' | 'existing';
  /** Set when a file of the user's had the report's name and the report went beside it. */
  besideOf?: string;
}

export async function savePdf(
  client: V3Client,
  id: string,
  wanted: string,
  /** The names this journal's runs wrote: only those are ours to keep as they are. */
  wrote: ReadonlySet<string>,
  pathOf: (name: string) => string,
  /** Called once the whole PDF has arrived, before it is written down (see RequestSpec.onAnswered). */
  onAnswered: () => unknown = () => undefined,
  /** --max-size: the most one PDF may be, decoded. */
  maxBytes = DEFAULT_PDF_MAX_BYTES,
): Promise<SavedPdf> {
  if (wrote.has(wanted) && existsSync(pathOf(wanted))) return { name: wanted, outcome: 'existing' };
  const tmp = await download(client, id, tempPathFor(pathOf(wanted)), pathOf(wanted), onAnswered, maxBytes);
  try {
    for (let n = 1; ; n++) {
      const name = n === 1 ? wanted : wanted.replace(/\.pdf$/, ` (${n}).pdf`);
      const target = pathOf(name);
      const besideOf = n === 1 ? undefined : wanted;
      if (!taken(target)) {
        await rename(tmp, target);
        return { name, outcome: 'saved', besideOf };
      }
      if (wrote.has(name) || sameBytes(tmp, target)) return { name, outcome: 'existing', besideOf };
    }
  } catch (err) {
    throw asFileError(err, 'the PDF', pathOf(wanted));
  } finally {
    await rm(tmp, { force: true });
  }
}

/** A name in use, also by a dangling symlink: the user's, which a rename onto it would replace. */
function taken(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

function sameBytes(a: string, b: string): boolean {
  try {
    return readFileSync(a).equals(readFileSync(b));
  } catch {
    return false;
  }
}

/**
 * A download that breaks off mid-body (the transport retries only until the headers) is tried
 * again, then fails its row as a NetworkError instead of stopping the export.
 */
async function download(
  client: V3Client,
  id: string,
  tmp: string,
  shown: string,
  onAnswered: () => unknown,
  maxBytes: number,
): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const res = await client.getReportPdf(id);
    await failUnlessOk(res);
    res.body.once('end', () => void onAnswered());
    try {
      const sink = new FileSink(tmp, { what: 'the PDF', shownPath: shown });
      await pipeline(pdfBody(res, maxBytes), pdfGuard(res.request), sink);
      return tmp;
    } catch (err) {
      await rm(tmp, { force: true });
      const e = err as NodeJS.ErrnoException;
      if (err instanceof ResponseShapeError) throw err; // not a PDF, or over --max-size: the same again
      if (err instanceof UsageError) throw err; // our disk (FileSink names the file): exit 2, never retried
      if (e.syscall && e.path !== undefined) throw asFileError(err, 'the PDF', tmp); // our disk
      if (err instanceof NetworkError && err.timedOut) throw err; // too slow: --timeout is the whole answer's deadline
      const d = decide({ kind: 'cut', code: e.code }, { n: attempt }, PDF_DOWNLOAD);
      if (!d.again)
        throw new NetworkError(
          `the PDF download broke off ${attempt} times: ${e.message}`,
          res.request,
          e.code,
          attempt,
        );
      await new Promise((r) => setTimeout(r, d.delayMs));
    }
  }
}
