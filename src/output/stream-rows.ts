// Writing a list's rows as they arrive (pages of `tests list --all`), so memory stays flat. What
// is printed stays parseable whatever stops the list (a later page failing, Ctrl-C): each row is
// written whole, in one write, and a JSON array is closed. A warning then says the list is
// incomplete; the error follows and the exit code is not 0. (gh streams pages the same way;
// buffering every page, as the AWS CLI does, would print nothing but hold the whole list.)

export type Rows<Row> = Iterable<Row> | AsyncIterable<Row>;

export interface RowStream<Row> {
  /** The whole text of row `i` (from 0): a line, or for JSON its element with the separator. */
  text(row: Row, i: number): string;
  /** Written after the last row when there was at least one (a JSON array's `]`). */
  close?: string;
  /** Written instead when the list is empty (`[]`, a CSV header). */
  empty?: string;
}

export async function streamRows<Row>(
  rows: Rows<Row>,
  how: RowStream<Row>,
  out: { write(text: string): void; warn(message: string): void },
): Promise<number> {
  let n = 0;
  try {
    for await (const row of rows) {
      out.write(how.text(row, n));
      n++;
    }
  } catch (err) {
    if (n) {
      if (how.close) out.write(how.close);
      out.warn(
        `the list is incomplete: ${n} row${n === 1 ? '' : 's'} printed ` +
          `before it stopped${how.close ? ' (the JSON array is closed)' : ''}`,
      );
    }
    throw err;
  }
  out.write(n ? (how.close ?? '') : (how.empty ?? ''));
  return n;
}
