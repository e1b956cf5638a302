// The files of `report export`, one row per attempt (summary-row.ts): with --format csv,
// summary.csv plus the long-format sections.csv and skills.csv (fixed columns every night), each
// with a UTF-8 byte order mark so Excel reads names as UTF-8 (`Chloé`, not `ChloÃ©`); with json or
// ndjson, summary.json|ndjson, the report's own shape per row. Written atomically: a file is
// always complete for its run.
import { join } from 'node:path';
import { AtomicFile } from '../../../files/atomic.js';
import { toCsvLine } from '../../../output/csv.js';
import { withIdRule } from '../../../output/ids.js';
import {
  SECTION_COLUMNS,
  SKILL_COLUMNS,
  SUMMARY_COLUMNS,
  sectionCells,
  skillCells,
  summaryCells,
  type SummaryRow,
} from './summary-row.js';

export { summaryRow, journaledRow, type SummaryRow } from './summary-row.js';

export type SummaryFormat = 'csv' | 'json' | 'ndjson';

/** Excel opens a CSV without it in the machine's legacy code page. */
const BOM = '\uFEFF';

/** The names of the files a run writes in its directory, summary first. */
export function summaryFiles(format: SummaryFormat): string[] {
  return format === 'csv' ? ['summary.csv', 'sections.csv', 'skills.csv'] : [`summary.${format}`];
}

/** Writes every file of `summaryFiles(format)` in `dir`. */
export function writeSummary(
  dir: string,
  format: SummaryFormat,
  written: SummaryRow[],
  scrub?: (text: string) => string,
): void {
  // the id rule of every output (the report's testId is a string on the wire); here, not in the
  // row, so rows an earlier run journaled are written the same way
  const rows = written.map(withIdRule);
  if (format !== 'csv')
    return writeFile(join(dir, `summary.${format}`), scrub, (file) => writeJson(file, format, rows));
  // long files first: a summary.csv on disk means its two companions are there too
  writeCsv(join(dir, 'sections.csv'), SECTION_COLUMNS, rows.flatMap(sectionCells), scrub);
  writeCsv(join(dir, 'skills.csv'), SKILL_COLUMNS, rows.flatMap(skillCells), scrub);
  writeCsv(join(dir, 'summary.csv'), SUMMARY_COLUMNS, rows.map(summaryCells), scrub);
}

function writeCsv(
  path: string,
  columns: readonly string[],
  lines: unknown[][],
  scrub?: (text: string) => string,
): void {
  // read by people in spreadsheets: formulas in names are neutralised
  writeFile(path, scrub, (file) => {
    file.write(BOM + toCsvLine([...columns], { formulaSafe: true }));
    for (const cells of lines) file.write(toCsvLine(cells, { formulaSafe: true }));
  });
}

function writeJson(file: AtomicFile, format: 'json' | 'ndjson', rows: Record<string, unknown>[]): void {
  if (format === 'ndjson') {
    for (const r of rows) file.write(`${JSON.stringify(r)}\n`);
    return;
  }
  file.write('[');
  rows.forEach((r, i) => file.write(`${i ? ',' : ''}\n  ${JSON.stringify(r)}`));
  file.write(rows.length ? '\n]\n' : ']\n');
}

function writeFile(
  path: string,
  scrub: ((text: string) => string) | undefined,
  fill: (file: AtomicFile) => void,
): void {
  const file = new AtomicFile(path, 'the summary', scrub);
  try {
    fill(file);
    file.commit();
  } catch (err) {
    file.discard();
    throw err;
  }
}
