// Renders command results in the format the user asked for (GUIDE §2): tables with colour on a
// TTY, tab-separated rows when piped, JSON / NDJSON / CSV with the service's own field names.
import { escapeCell, escapeJson } from './escape.js';
import type { Style } from './style.js';
import type { CsvOptions } from './csv.js';
import type { Context } from '../context.js';
import { checkFields, pickFields } from './fields.js';
import { renderQueryResult, unknownFieldWarning, type Query } from './query.js';
import { getPath, plain, statusColour } from './values.js';
import { displayZone, timeText } from './local-time.js';
import { fitColumns } from './fit.js';
import { displayWidth, truncate } from './width.js';
import { breakKey, wrapWords } from './key-value.js';
import { writePaged } from './pager.js';
import { withIdRule } from './ids.js';
import { streamRows, type Rows } from './stream-rows.js';

/** A row type's own keys, without the index signature of a loose (passthrough) object. */
type KnownKeys<T> = keyof {
  [K in keyof T as string extends K ? never : number extends K ? never : symbol extends K ? never : K]: T[K];
} &
  string;
type Down = [never, 0, 1, 2];
/** `key` or `key.nested` (objects only, up to three levels) of a row type. */
type PathOf<T, D extends number = 2> = [D] extends [never]
  ? never
  : T extends readonly unknown[]
    ? never
    : T extends object
      ? {
          [K in KnownKeys<T>]:
            | K
            | (NonNullable<T[K]> extends readonly unknown[]
                ? never
                : NonNullable<T[K]> extends object
                  ? `${K}.${PathOf<NonNullable<T[K]>, Down[D]>}`
                  : never);
        }[KnownKeys<T>]
      : never;
/** A column key of `Row`: a typo is a type error. Rows without declared keys take any string. */
export type ColumnKey<Row> = [PathOf<Row>] extends [never] ? string : PathOf<Row>;

/**
 * A column of rows of type `Row`. `key` is the service field name (dotted for nested), also the
 * machine-format key; it must be a field of `Row`, so a typo is a type error instead of an empty
 * column. A column with its own `value` computes the cell and may name its key freely.
 */
export type Column<Row = Record<string, unknown>> = {
  header: string;
  kind?: 'text' | 'date' | 'status' | 'id';
  /**
   * Rank on a narrow terminal: 1 is kept longest, larger numbers are dropped first (unranked
   * columns after every ranked one, rightmost first). Text cells are shortened with `…` before
   * anything is dropped below its narrowest; ids, dates and statuses are never cut.
   */
  priority?: number;
  /** Columns that mean something only together (a window's Start and End) are dropped together. */
  group?: string;
} & ({ key: ColumnKey<Row>; value?: undefined } | { key: string; value: (row: Row) => unknown });

export interface ListSpec<Row = Record<string, unknown>> {
  columns: ReadonlyArray<Column<Row>>;
  /** Every field name --json may select (defaults to column keys plus the rows' own keys). */
  fields?: readonly string[];
}

/** A nested table; its columns were checked against its own row type where they were declared. */
export interface Section {
  title: string;
  rows: readonly object[];
  // any: each section has its own row type, checked where its columns are declared
  columns: ReadonlyArray<Column<any>>;
}

export interface ObjectSpec<Row = Record<string, unknown>> {
  /** The header shown on a TTY as label: value lines. */
  fields: ReadonlyArray<Column<Row>>;
  /** Nested tables shown under the header on a TTY (sections, skills, …). */
  sections?: Section[];
}

type AnyRow = Record<string, unknown>;
type AnyColumn = Column<AnyRow>;

export class Printer {
  readonly c: Style;
  constructor(private readonly ctx: Context) {
    this.c = ctx.io.style;
  }

  /** The zone times are shown in (src/output/local-time.ts): the run's TZ, else the system's. */
  get zone(): string | undefined {
    return displayZone(this.ctx.env ?? {});
  }

  private write(s: string) {
    this.ctx.io.stdout.write(s);
  }

  /** JSON text: exact when piped; on a terminal what JSON.stringify leaves raw (C1, bidi) escaped. */
  private writeJson(s: string) {
    this.write(this.jsonText(s));
  }

  private jsonText(s: string): string {
    return this.ctx.io.stdoutIsTTY ? escapeJson(s) : s;
  }

  /**
   * The late `--json a,b` check, against what this output can hold. Fields the command declared
   * (checked before it ran, see cli/json-fields.ts) count as valid too: a field absent from this
   * particular row (an optional one) must not be refused after it was accepted up front.
   */
  private check(valid: Iterable<string>, columns: ReadonlyArray<AnyColumn> = []): void {
    if (!this.ctx.globals.fields) return;
    const headings = new Map(this.ctx.jsonFields?.headings);
    for (const c of columns) if (!c.key.includes('.') && !headings.has(c.key)) headings.set(c.key, [c.header]);
    checkFields(this.ctx.globals.fields, new Set([...valid, ...(this.ctx.jsonFields ?? [])]), headings);
  }

  /** --csv: formulas neutralised when asked; on a terminal, cells escaped as in a table. */
  private csvOptions(): CsvOptions {
    return { formulaSafe: this.ctx.globals.csvSafe, escape: this.ctx.io.stdoutIsTTY };
  }

  /** Prints a list; rows may stream (an async iterable) for NDJSON, JSON, CSV and TSV. */
  async list<Row extends object>(typedRows: Rows<Row>, typedSpec: ListSpec<Row>): Promise<number> {
    const rows = typedRows as Rows<AnyRow>;
    const spec = typedSpec as unknown as ListSpec<AnyRow>;
    const { output, fields, query } = this.ctx.globals;
    if (query) {
      // every page first: the query sees the whole list as one array
      const all: Array<Record<string, unknown>> = [];
      for await (const row of rows) all.push(withIdRule(row));
      this.writeJson(renderQueryResult(query.run(all), output === 'ndjson'));
      this.warnUnknownFields(query, all, spec.columns);
      return all.length;
    }
    const valid = () => spec.fields ?? spec.columns.map((c) => c.key);
    if (spec.fields) this.check(spec.fields, spec.columns);
    const out = { write: (text: string) => this.write(text), warn: (m: string) => this.ctx.warn(m) };
    const json = (row: AnyRow, i: number) => {
      // the late field check, against the first row's own keys
      if (!spec.fields && i === 0) this.check([...valid(), ...Object.keys(row)], spec.columns);
      return this.jsonText(JSON.stringify(pickFields(withIdRule(row), fields, spec.fields ?? this.ctx.jsonFields)));
    };
    switch (output) {
      case 'json':
        return streamRows(
          rows,
          { text: (row, i) => `${i ? ',' : '['}\n  ${json(row, i)}`, close: '\n]\n', empty: '[]\n' },
          out,
        );
      case 'ndjson':
        return streamRows(rows, { text: (row, i) => `${json(row, i)}\n` }, out);
      case 'csv': {
        const { toCsvLine } = await import('./csv.js');
        const keys = fields ?? spec.columns.map((c) => c.key);
        const safe = this.csvOptions();
        const header = toCsvLine(keys, safe);
        const line = (row: AnyRow) =>
          toCsvLine(
            keys.map((k) => cell(withIdRule(row), spec.columns, k)),
            safe,
          );
        // the header comes with the first row: a list that fails before any row prints nothing
        return streamRows(rows, { text: (row, i) => (i ? '' : header) + line(row), empty: header }, out);
      }
      case 'tsv':
        return streamRows(
          rows,
          { text: (row) => `${spec.columns.map((col) => tsvCell(plain(cellOf(row, col)))).join('\t')}\n` },
          out,
        );
      default: {
        const all: Array<Record<string, unknown>> = [];
        for await (const row of rows) all.push(row);
        if (all.length) await writePaged(this.ctx, `${await this.table(all, spec.columns)}\n`);
        else this.ctx.info('No results.');
        return all.length;
      }
    }
  }

  /** Prints one object: an object under --json/--ndjson, key/value lines otherwise. */
  async object<Row extends object>(
    typedObj: Row,
    typedSpec: ObjectSpec<Row>,
    jsonFields?: readonly string[],
  ): Promise<void> {
    const obj = withIdRule(typedObj as AnyRow);
    const spec = typedSpec as unknown as ObjectSpec<AnyRow>;
    const { output, fields, query } = this.ctx.globals;
    if (query) {
      this.writeJson(renderQueryResult(query.run(obj), output === 'ndjson'));
      this.warnUnknownFields(query, obj, spec.fields);
      return;
    }
    if (output === 'json' || output === 'ndjson') {
      this.check(jsonFields ?? Object.keys(obj), spec.fields);
      const picked = pickFields(obj, fields, this.ctx.jsonFields);
      this.writeJson(output === 'json' ? `${JSON.stringify(picked, null, 2)}\n` : `${JSON.stringify(picked)}\n`);
      return;
    }
    if (output === 'csv') {
      const { toCsvLine } = await import('./csv.js');
      const keys = fields ?? spec.fields.map((f) => f.key);
      const safe = this.csvOptions();
      this.write(toCsvLine(keys, safe));
      this.write(
        toCsvLine(
          keys.map((k) => cell(obj, spec.fields, k)),
          safe,
        ),
      );
      return;
    }
    if (output === 'tsv') {
      for (const f of spec.fields) this.write(`${f.key}\t${tsvCell(plain(cellOf(obj, f)))}\n`);
      for (const s of spec.sections ?? [])
        for (const row of s.rows as readonly AnyRow[])
          this.write(`${s.columns.map((col) => tsvCell(plain(cellOf(row, col)))).join('\t')}\n`);
      return;
    }
    this.write(await this.keyValueText(obj, spec));
  }

  /** Like object(), but a key/value view longer than the terminal goes through the pager. */
  async objectPaged<Row extends object>(
    typedObj: Row,
    typedSpec: ObjectSpec<Row>,
    jsonFields?: readonly string[],
  ): Promise<void> {
    const { output, query } = this.ctx.globals;
    if (output !== 'table' || query) return this.object(typedObj, typedSpec, jsonFields);
    await writePaged(
      this.ctx,
      await this.keyValueText(withIdRule(typedObj as AnyRow), typedSpec as unknown as ObjectSpec<AnyRow>),
    );
  }

  /**
   * Key/value lines that fit the terminal: keys in a column as wide as the values leave room for
   * (at least about half of it); a longer key stands on its own line (broken after a dot if it is wider than the
   * terminal) with
   * its value below; a long value wraps at spaces under its column. Nothing is cut mid-word.
   */
  private async keyValueText(obj: AnyRow, spec: ObjectSpec<AnyRow>): Promise<string> {
    const cols = Math.max(20, this.ctx.io.columns);
    const longest = Math.max(...spec.fields.map((f) => displayWidth(f.header)));
    // as wide as the values leave room for, and at least about half the terminal
    const widestValue = Math.max(0, ...spec.fields.map((f) => displayWidth(this.shown(cellOf(obj, f), f))));
    const keyWidth = Math.min(longest, Math.max(Math.floor(cols * 0.45), cols - 2 - widestValue));
    const valueAt = keyWidth + 2;
    const pad = ' '.repeat(valueAt);
    let out = '';
    for (const f of spec.fields) {
      const text = this.shown(cellOf(obj, f), f);
      const value = wrapWords(text, cols - valueAt).map((line, i) =>
        i === 0 && line === text ? this.colour(line, f) : line,
      );
      const key = displayWidth(f.header) <= keyWidth ? [f.header] : breakKey(f.header, cols);
      const last = key.length - 1;
      key.forEach((k, i) => {
        if (i < last || displayWidth(k) > keyWidth) out += `${this.c.bold(k)}\n`;
        else out += `${this.c.bold(k + ' '.repeat(keyWidth - displayWidth(k)))}  ${value.shift() ?? ''}\n`;
      });
      for (const line of value) out += `${pad}${line}\n`;
    }
    for (const s of spec.sections ?? []) {
      if (!s.rows.length) continue;
      out += `\n${this.c.bold(s.title)}\n${await this.table(s.rows, s.columns)}\n`;
    }
    return out;
  }

  /**
   * A table that fits `io.columns` (GUIDE: a row never wraps): long text cells end in `…`, the
   * lowest-ranked columns are dropped first, with a notice on stderr naming them.
   */
  async table(rows: readonly object[], columns: ReadonlyArray<AnyColumn>): Promise<string> {
    const texts = (rows as readonly AnyRow[]).map((row) => columns.map((col) => this.shown(cellOf(row, col), col)));
    const fit = fitColumns(
      columns.map((col, i) => ({
        header: col.header,
        cells: texts.map((t) => t[i]),
        priority: col.priority ?? 1000 + i,
        shrinkable: !col.kind || col.kind === 'text',
        group: col.group,
      })),
      this.ctx.io.columns,
    );
    const hidden = columns.filter((_, i) => !fit.keep.includes(i)).map((c) => c.header);
    if (hidden.length)
      this.ctx.info(`(${hidden.join(', ')} hidden to fit ${this.ctx.io.columns} columns; --json shows every field)`);
    // loaded for a table only: JSON, CSV and TSV never need it
    const { default: Table } = await import('cli-table3');
    const t = new Table({
      head: fit.keep.map((i, k) => this.c.bold(truncate(columns[i].header, fit.widths[k]))),
      style: { head: [], border: this.ctx.io.color ? ['grey'] : [] },
      wordWrap: false,
    });
    for (const cells of texts)
      t.push(fit.keep.map((i, k) => this.colour(truncate(cells[i], fit.widths[k]), columns[i])));
    // Keep the rule under the header but none between rows: twice as many rows fit on a screen.
    const lines = t.toString().split('\n');
    const isRule = (line: string) => /^(\u001b\[[0-9;]*m)*\u251c/.test(line);
    const headerRule = lines.findIndex(isRule);
    return lines.filter((line, i) => !isRule(line) || i === headerRule).join('\n');
  }

  /** One stderr line when the query names a field this output does not have (headings map to fields). */
  private warnUnknownFields(query: Query, data: unknown, columns: ReadonlyArray<AnyColumn>): void {
    const headings = new Map(columns.filter((c) => !c.key.includes('.')).map((c) => [c.header.toLowerCase(), c.key]));
    const warning = unknownFieldWarning(query, data, headings);
    if (warning) this.ctx.warn(warning);
  }

  /** A TTY cell as text: service text escaped first (times in this machine's zone, named); no colour yet. */
  private shown(v: unknown, col: AnyColumn): string {
    return escapeCell(col.kind === 'date' ? timeText(v, (this.tz ??= { zone: this.zone }).zone) : plain(v));
  }
  private tz?: { zone: string | undefined };

  /** Our own colour, added after the service text was escaped and shortened. */
  private colour(text: string, col: AnyColumn): string {
    return col.kind === 'status' ? statusColour(text, this.c) : text;
  }
}

function cellOf(row: AnyRow, col: AnyColumn): unknown {
  return col.value ? col.value(row) : getPath(row, col.key);
}

function cell(row: AnyRow, cols: ReadonlyArray<AnyColumn>, key: string): unknown {
  const col = cols.find((c) => c.key === key);
  return col ? cellOf(row, col) : getPath(row, key);
}

/** Tabs and newlines inside a value would break the row structure scripts rely on. */
function tsvCell(s: string): string {
  return escapeCell(s.replace(/[\t\r\n]+/g, ' '));
}
