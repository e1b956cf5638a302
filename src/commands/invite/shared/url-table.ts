// Bulk invite on a terminal: after the run, a table of each candidate's test URL (the results
// file holds them too, as NDJSON, but a person at a terminal should not have to read that).
// Only for a table on a TTY without --query; piped and machine formats are unchanged.
import type { Context } from '../../../context.js';
import { escapeCell } from '../../../output/escape.js';
import { fitColumns, READABLE_TEXT_WIDTH } from '../../../output/fit.js';
import { writePaged } from '../../../output/pager.js';
import { Printer, type Column } from '../../../output/printer.js';
import { plain } from '../../../output/values.js';
import { displayWidth } from '../../../output/width.js';

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

// Headings as other tables say them. On a narrow terminal the line number goes first, then the
// name (the e-mail says who); the URL (what this table is for, never cut) and the invitation id last.
const COLUMNS: Column<UrlRow>[] = [
  { key: 'line', header: 'Line', kind: 'id', priority: 6 },
  { key: 'email', header: 'E-mail', priority: 3 },
  { key: 'name', header: 'Name', priority: 5 },
  { key: 'testInvitationId', header: 'Invitation', kind: 'id', priority: 2 },
  { key: 'outcome', header: 'Outcome', kind: 'status', priority: 4 },
  { key: 'testUrl', header: 'URL', kind: 'id', priority: 1 },
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

  /**
   * The table is shown where it holds the e-mail readable beside the id and the URL whole (both
   * rank above it); a narrower terminal gets two lines a candidate, where nothing is cut.
   */
  private tableShowsWho(): boolean {
    const cols = COLUMNS.map((col, i) => ({
      header: col.header,
      cells: this.rows.map((r) => escapeCell(plain(r[col.key as keyof UrlRow]))),
      priority: col.priority ?? 1000 + i,
      shrinkable: !col.kind || col.kind === 'text',
    }));
    const fit = fitColumns(cols, this.ctx.io.columns);
    const email = COLUMNS.findIndex((c) => c.key === 'email');
    const k = fit.keep.indexOf(email);
    const natural = Math.max(...[cols[email].header, ...cols[email].cells].map(displayWidth));
    return k >= 0 && fit.widths[k] >= Math.min(natural, READABLE_TEXT_WIDTH);
  }
}

/** Two lines a candidate, for a terminal too narrow for the table: who and which, then the URL whole. */
function listEntry(r: UrlRow): string {
  const who = [plain(r.email), plain(r.name) && `(${plain(r.name)})`].filter(Boolean).join(' ');
  const id = plain(r.testInvitationId) && `invitation ${plain(r.testInvitationId)}, `;
  return `${escapeCell(who)}  ${escapeCell(`line ${r.line}, ${id}${r.outcome}`)}\n  ${escapeCell(plain(r.testUrl))}\n`;
}
