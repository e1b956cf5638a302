// `assess report <id> --pdf [-o FILE|DIR|-] [--force] [--max-size SIZE]`: streams the PDF
// (operation 5), decoded and within --max-size, into a temp file beside the target, checks it
// starts with %PDF-, then moves it into place, so a failed, oversized or interrupted download
// never leaves a partial file under the real name.
import { PDF_COLUMNS } from './fields.js';
import { existsSync, rmSync, statSync, type Stats } from 'node:fs';
import { link, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { causeOf, fileProblem, writeTarget } from '../../../files/output-files.js';
import { kindOf } from '../../../util/small-file.js';
import { FileSink } from '../../../util/write-all.js';
import { decodedBody, DEFAULT_MAX_ANSWER_BYTES, readAnswerText } from '../../../api/answer-cap.js';
import {
  ApiError,
  NetworkError,
  parseErrorBody,
  ResponseShapeError,
  UnexpectedAnswerError,
  type RequestInfo,
} from '../../../api/errors.js';
import { baseUrlHint, describeNotJson } from '../../../api/read/answer-kind.js';
import { DEFAULT_PDF_MAX_BYTES, RAISE_MAX_SIZE } from '../../shared/max-size.js';
import type { RawResponse } from '../../../api/transport.js';
import type { Context } from '../../../context.js';
import { LocalError, UsageError } from '../../../errors.js';
import { Printer } from '../../../output/printer.js';
import { reportPdfName } from './filename.js';

const MAGIC = Buffer.from('%PDF-');

export interface PdfOptions {
  output?: string;
  force: boolean;
  /** --max-size in bytes (default 50 MiB). */
  maxBytes?: number;
  /** Where the PDF and the candidate's name come from (default: v3 operations 5 and 4; v2 passes its own). */
  source?: PdfSource;
}

export interface PdfSource {
  getReportPdf(invitationId: string): Promise<RawResponse>;
  candidateName(invitationId: string): Promise<string | null | undefined>;
}

function v3Source(ctx: Context): PdfSource {
  return {
    getReportPdf: async (id) => (await ctx.api()).getReportPdf(id),
    candidateName: async (id) => {
      const report = await (await ctx.api()).getReport(id, 1);
      return report.candidateName ?? report.candidateEmail;
    },
  };
}

export async function downloadPdf(ctx: Context, invitationId: string, opts: PdfOptions): Promise<void> {
  const client = opts.source ?? v3Source(ctx);
  const maxBytes = opts.maxBytes ?? DEFAULT_PDF_MAX_BYTES;
  if (opts.output === '-') return toStdout(ctx, invitationId, client, maxBytes);
  const target = await resolveTarget(client, invitationId, opts.output);
  // without -o the file is the default name in this directory: the messages must not name -o
  const flag = opts.output === undefined ? '--pdf' : '-o';
  // a symlink is written through (the link stays); a device, FIFO or directory is refused (exit 2)
  const real = writeTarget(target, flag);
  if (!opts.force && existsSync(target)) throw exists(target, flag);

  const res = await client.getReportPdf(invitationId);
  await failUnlessOk(res);
  const body = pdfBody(res, maxBytes);
  const { tempPathFor } = await import('../../../files/atomic.js'); // its node:crypto only when a file is written
  const tmp = tempPathFor(real);
  // Also on the way out (Ctrl-C lands here after the pipeline is torn down).
  ctx.onExit(() => rmSync(tmp, { force: true }));
  try {
    // every byte written and fsync'd, or a usage error naming the file (a full disk is not the network)
    await pipeline(body, pdfGuard(res.request), new FileSink(tmp, { what: 'the PDF to', shownPath: target }), {
      signal: ctx.signal,
    });
    await moveIntoPlace(tmp, real, opts.force, flag);
  } catch (err) {
    await rm(tmp, { force: true });
    throw downloadError(err, res.request, ctx.signal, target);
  }
  const bytes = (await stat(target)).size;
  ctx.info(`Saved the report PDF of invitation ${invitationId} to ${target} (${bytes} bytes).`);
  const { output } = ctx.globals;
  if (output === 'json' || output === 'ndjson' || output === 'csv')
    await new Printer(ctx).object(
      { testInvitationId: Number(invitationId), file: target, bytes },
      { fields: PDF_COLUMNS },
    );
}

/** `-o -`: the PDF bytes on stdout, never onto a terminal. */
async function toStdout(ctx: Context, invitationId: string, client: PdfSource, maxBytes: number): Promise<void> {
  if (ctx.io.stdoutIsTTY)
    throw new UsageError(
      '-o -: refusing to write a PDF to a terminal',
      `redirect it: assess report ${invitationId} --pdf -o - > report.pdf`,
    );
  const res = await client.getReportPdf(invitationId);
  await failUnlessOk(res);
  try {
    await pipeline(pdfBody(res, maxBytes), pdfGuard(res.request), ctx.io.stdout, { signal: ctx.signal, end: false });
  } catch (err) {
    throw downloadError(err, res.request, ctx.signal, 'standard output');
  }
}

const STDOUT_FAULTS = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EIO', 'EROFS']);

/** A failure while streaming: the connection (exit 6), the disk (exit 2), or not a PDF. */
function downloadError(err: unknown, request: RequestInfo, signal: AbortSignal, file?: string): unknown {
  if (signal.aborted || err instanceof ResponseShapeError || err instanceof UsageError || err instanceof NetworkError)
    return err;
  const e = err as NodeJS.ErrnoException;
  // Our side: the file (it has a path) or standard output (a full disk behind a redirection).
  const ours =
    file !== undefined &&
    ((e.syscall && e.path !== undefined) || (file === 'standard output' && STDOUT_FAULTS.has(e.code ?? '')));
  if (ours)
    return (
      fileProblem(err, 'the PDF to', file) ??
      new LocalError(
        `cannot write the PDF to ${file}: ${e.code ?? e.message}`,
        'check the directory permissions and free space',
      )
    );
  return new NetworkError(
    `the PDF download broke off: ${e.message ?? String(err)}`,
    request,
    e.code,
    1,
    /TIMEOUT/.test(e.code ?? ''),
  );
}

/**
 * `-o` may name a file or an existing directory (a trailing slash: only a directory); without it
 * the default name goes in the cwd.
 */
async function resolveTarget(client: PdfSource, invitationId: string, output: string | undefined): Promise<string> {
  let dir = process.cwd();
  if (output !== undefined) {
    const path = resolve(output);
    if (!isDir(path)) {
      // `-o nodir/` names a directory: never a file called nodir
      if (output.endsWith('/') || output.endsWith(sep)) throw notADirectory(output, path);
      if (!isDir(dirname(path))) throw notADirectory(dirname(path), dirname(path));
      return path;
    }
    dir = path;
  }
  // The default name needs the candidate, which only the JSON report carries.
  return join(dir, reportPdfName(await client.candidateName(invitationId), invitationId));
}

/**
 * Exit 2 for the directory `-o` needs (`shown` as the user reads it, at `path`) when it is not
 * one: missing, or a file (or a device…) on the way there (ENOTDIR), named as the file it is.
 */
function notADirectory(shown: string, path: string): UsageError {
  for (let p = path; ; p = dirname(p)) {
    let st: Stats;
    try {
      st = statSync(p);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if ((code === 'ENOENT' || code === 'ENOTDIR') && p !== dirname(p)) continue; // look at its parent
      return new UsageError(
        `-o: cannot use ${p}: ${causeOf(code) ?? (err as Error).message}${code ? ` (${code})` : ''}`,
      );
    }
    if (st.isDirectory()) break; // the first thing there is a directory: what lies under it is missing
    const kind = st.isFile() ? 'a file' : kindOf(st);
    return new UsageError(
      `-o: ${p === path ? shown : p} is ${kind}, not a directory (ENOTDIR)`,
      'name an existing directory, or a file in one',
    );
  }
  const trailing = shown.endsWith('/') || shown.endsWith(sep);
  return new UsageError(
    `-o: directory ${shown} does not exist`,
    trailing ? `create it first (mkdir -p ${shown}), or drop the trailing / to name a file` : undefined,
  );
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function exists(target: string, flag: '-o' | '--pdf'): UsageError {
  if (flag === '-o')
    return new UsageError(`-o: ${target} already exists`, 'use --force to overwrite it, or -o to choose another file');
  return new UsageError(
    `--pdf: ${target} already exists (the default name for this report)`,
    'use --force to overwrite it, or -o FILE to write it elsewhere',
  );
}

/** A hard link never replaces an existing file, so two downloads cannot clobber each other. */
async function moveIntoPlace(tmp: string, target: string, force: boolean, flag: '-o' | '--pdf'): Promise<void> {
  if (force) return rename(tmp, target);
  try {
    await link(tmp, target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw exists(target, flag);
    // File systems without hard links: check, then rename (a small race, but no partial file).
    if (existsSync(target)) throw exists(target, flag);
    return rename(tmp, target);
  }
  await rm(tmp, { force: true });
}

/** The PDF's bytes as they arrive, decoded, stopped past `maxBytes` (AnswerTooLargeError naming --max-size). */
export function pdfBody(res: RawResponse, maxBytes: number): Readable {
  return decodedBody(res, maxBytes, { raise: RAISE_MAX_SIZE });
}

/**
 * A refusal (its body read within the answer cap: a refusal of gigabytes is not read), or a 2xx
 * that says it is a page or JSON rather than a PDF (a captive portal's sign-in page): named for
 * what it is, with where the base URL came from.
 */
export async function failUnlessOk(res: RawResponse) {
  const ok = res.status >= 200 && res.status <= 299;
  const type = String(res.headers['content-type'] ?? '');
  if (ok && !/html|json|text\//i.test(type)) return;
  const text = await readAnswerText(res, DEFAULT_MAX_ANSWER_BYTES).catch(() => '');
  if (!ok) throw new ApiError(res.status, parseErrorBody(text), res.request, res.attempts);
  const r = res.request;
  throw new UnexpectedAnswerError(
    `${r.method} ${new URL(r.url).pathname} was answered HTTP ` +
      `${res.status} with ${describeNotJson(type, text)}, not a PDF`,
    r,
    baseUrlHint(r),
  );
}

/** Passes bytes through once the first five are `%PDF-`; anything else is not a PDF. */
export function pdfGuard(request: RequestInfo): Transform {
  let head = Buffer.alloc(0);
  let checked = false;
  const fail = (got: Buffer) =>
    new UnexpectedAnswerError(
      `the service did not send a PDF (it starts with ${JSON.stringify(got.toString('latin1'))})`,
      request,
      baseUrlHint(request),
    );
  return new Transform({
    transform(chunk: Buffer, _enc, cb: TransformCallback) {
      if (checked) return cb(null, chunk);
      head = Buffer.concat([head, chunk]);
      if (head.length < MAGIC.length) return cb();
      if (!head.subarray(0, MAGIC.length).equals(MAGIC)) return cb(fail(head.subarray(0, 16)));
      checked = true;
      cb(null, head);
    },
    flush(cb: TransformCallback) {
      cb(checked ? null : fail(head));
    },
  });
}
