// Bulk invite on a terminal: after the run, a table of each candidate's test URL (the results
// file holds them too, as NDJSON, but a person at a terminal should not have to read that).
// Only for a table on a TTY without --query; piped and machine formats are unchanged.
import type { Context } from '../../../context.js';
import { escapeCell } from '../../../output/escape.js';
import { fitColumns } from '../../../output/fit.js';
import { writePaged } from '../../../output/pager.js';
import { Printer, type Column } from '../../../output/printer.js';
import { plain } from '../../../output/values.js';

export interface UrlRow {
  line: number;
  email: unknown;
  name: unknown;
  testInvitationId: unknown;
  testUrl: unknown;
  outcome: string;
}

/** More rows than this are left to the results file (the table says how many). */
const MAX_ROWS = 1000;

// Headings are the field names of the results file, so what is seen is what can be queried.
const COLUMNS: Column<UrlRow>[] = [
  { key: 'line', header: 'line', kind: 'id', priority: 4 },
  { key: 'email', header: 'email', priority: 2 },
  { key: 'name', header: 'name', priority: 3 },
  { key: 'testInvitationId', header: 'testInvitationId', kind: 'id', priority: 5 },
  { key: 'outcome', header: 'outcome', kind: 'status', priority: 6 },
  // the URL is what this table is for: kept whole (never cut), kept longest
  { key: 'testUrl', header: 'testUrl', kind: 'id', priority: 1 },
];

export class UrlTable {
  private readonly rows: UrlRow[] = [];
  private more = 0;
  readonly enabled: boolean;
  constructor(private readonly ctx: Context) {
    this.enabled = ctx.globals.output === 'table' && !ctx.globals.query && ctx.io.stdoutIsTTY;
  }

  add(
    line: number,
    fields: Record<string, string>,
    got: { testInvitationId?: unknown; testUrl?: unknown },
    outcome: string,
  ): void {
    if (!this.enabled) return;
    if (this.rows.length >= MAX_ROWS) {
      this.more++;
      return;
    }
    this.rows.push({
      line,
      email: fields.email,
      name: fields.name,
      testInvitationId: got.testInvitationId,
      testUrl: got.testUrl,
      outcome,
    });
  }

  async print(resultsPath: string): Promise<void> {
    if (!this.enabled || !this.rows.length) return;
    this.rows.sort((a, b) => a.line - b.line);
    if (this.tableShowsWho()) await new Printer(this.ctx).list(this.rows, { columns: COLUMNS });
    else await writePaged(this.ctx, this.rows.map(listEntry).join(''));
    if (this.more) this.ctx.info(`… and ${this.more} more; every row is in ${resultsPath}`);
  }

  /** A table too narrow to show whose URL each is (e-mail and URL side by side) is not shown. */
  private tableShowsWho(): boolean {
    const fit = fitColumns(
      COLUMNS.map((col, i) => ({
        header: col.header,
        cells: this.rows.map((r) => escapeCell(plain(r[col.key as keyof UrlRow]))),
        priority: col.priority ?? 1000 + i,
        shrinkable: !col.kind || col.kind === 'text',
      })),
      this.ctx.io.columns,
    );
    return fit.keep.includes(COLUMNS.findIndex((c) => c.key === 'email'));
  }
}

/** Two lines a candidate, for a terminal too narrow for the table: who, then the URL whole. */
function listEntry(r: UrlRow): string {
  const who = [plain(r.email), plain(r.name) && `(${plain(r.name)})`].filter(Boolean).join(' ');
  return `${escapeCell(who)}  line ${r.line}, ${r.outcome}\n  ${escapeCell(plain(r.testUrl))}\n`;
}
