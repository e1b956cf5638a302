// The files of `report export` besides the PDFs: --out made and checked, the journal, results and
// summary files checked before anything is asked for, and none replaced that assess did not write.
import { existsSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { causeOf, checkFiles } from '../../../files/output-files.js';
import type { BulkRun } from '../../../bulk/run.js';
import { LocalError, UsageError } from '../../../errors.js';
import { makeDirs } from '../../../util/private-dir.js';
import { summaryFiles } from './export-rows.js';
import type { ExportInput } from '../export.js';

export const HTML_NAME = 'index.html';

/** The files an export writes besides the PDFs. */
export interface Outputs {
  journalFile: string | undefined;
  resultsPath: string;
  /** The summary files of --format, the summary itself first. */
  written: string[];
}

/** --out, made if missing: private (0700), since reports name candidates; a refusal names its real cause. */
export function outDir(out: string): { dir: string; created: boolean } {
  const dir = resolve(out);
  const created = !existsSync(dir);
  try {
    makeDirs(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const cause = code === 'EEXIST' ? 'a file of that name is in the way' : causeOf(code);
    if (!cause) throw err;
    throw new UsageError(
      `--out: cannot create ${dir} (${code}): ${cause}`,
      'choose another directory, or fix the permissions there',
    );
  }
  if (!statSync(dir).isDirectory()) throw new UsageError(`--out: ${dir} is not a directory`);
  return { dir, created };
}

/** The journal, results and summary files, each checked to be writable before anything is asked for. */
export function checkOutputs(input: ExportInput, dir: string): Outputs {
  const journalFile = input.journal === undefined ? undefined : resolve(input.journal);
  const resultsPath = resolve(input.results ?? join(dir, 'export.results.ndjson'));
  const written = summaryFiles(input.format);
  checkFiles([
    ...(journalFile ? [{ flag: '--journal', path: journalFile, role: 'output' as const }] : []),
    { flag: '--results', path: resultsPath, role: 'output', replaced: true },
    ...written.map((name) => ({ flag: 'the summary', path: join(dir, name), role: 'output' as const, replaced: true })),
    ...(input.html
      ? [{ flag: 'the HTML digest', path: join(dir, HTML_NAME), role: 'output' as const, replaced: true }]
      : []),
  ]);
  return { journalFile, resultsPath, written };
}

/** A summary file or index.html that this journal's runs did not write is the user's: never replaced. */
export function refuseForeignFiles(run: BulkRun, input: ExportInput, dir: string, written: string[]): void {
  const notOurs = written.find((name) => existsSync(join(dir, name)) && !run.journal.wrote.has(name));
  if (notOurs) {
    run.close(false);
    throw new UsageError(
      `--out: ${join(dir, notOurs)} exists and was not written by assess (its journal in ${run.journal.path} does ` +
        `not list it); refusing to replace it`,
      'move it away, or choose another --out directory',
    );
  }
  if (input.html && existsSync(join(dir, HTML_NAME)) && !run.journal.wrote.has(HTML_NAME)) {
    run.close(false);
    throw new UsageError(
      `--html: ${join(dir, HTML_NAME)} exists and was not written by assess (its journal in ` +
        `${run.journal.path} does not list it); refusing to replace it`,
      'move it away, or choose another --out directory',
    );
  }
}

/** A file name built from service data must stay inside DIR, whatever it contains. */
export function inside(dir: string, name: string): string {
  const path = resolve(dir, name);
  if (!path.startsWith(dir + sep) || path.slice(dir.length + 1).includes(sep))
    throw new LocalError(`refusing to write ${JSON.stringify(name)}: it would leave ${dir}`);
  return path;
}
