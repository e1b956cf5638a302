// The summary file of `report export`, one row per attempt (summary-row.ts): CSV with section and
// skill scores as columns, or JSON / NDJSON with them nested. Written atomically: a summary file
// is always complete for its run.
import { AtomicFile } from '../../../files/atomic.js';
import { toCsvLine } from '../../../output/csv.js';
import { withIdRule } from '../../../output/ids.js';
import { csvColumns, csvValues, type SummaryRow } from './summary-row.js';

export { summaryRow, type SummaryRow } from './summary-row.js';

export type SummaryFormat = 'csv' | 'json' | 'ndjson';

export function writeSummary(
  target: string,
  format: SummaryFormat,
  written: SummaryRow[],
  scrub?: (text: string) => string,
): void {
  // the id rule of every output (the report's testId is a string on the wire); here, not in the
  // row, so rows an earlier run journaled are written the same way
  const rows = written.map(withIdRule);
  const file = new AtomicFile(target, 'the summary', scrub);
  try {
    if (format === 'csv') {
      const columns = csvColumns(rows);
      // summary.csv is opened by people in spreadsheets: formulas in names are neutralised.
      file.write(toCsvLine(columns, { formulaSafe: true }));
      for (const r of rows) file.write(toCsvLine(csvValues(r, columns), { formulaSafe: true }));
    } else if (format === 'ndjson') {
      for (const r of rows) file.write(`${JSON.stringify(r)}\n`);
    } else {
      file.write('[');
      rows.forEach((r, i) => file.write(`${i ? ',' : ''}\n  ${JSON.stringify(r)}`));
      file.write(rows.length ? '\n]\n' : ']\n');
    }
    file.commit();
  } catch (err) {
    file.discard();
    throw err;
  }
}
