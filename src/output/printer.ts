// Renders command results in the format the user asked for (GUIDE §2): tables with colour on a
// TTY, tab-separated rows when piped, JSON / NDJSON / CSV with the service's own field names.
import { escapeCell } from './escape.js';
import { Chalk, type ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import type { Context } from '../context.js';
import { checkFields, pickFields } from './fields.js';
import { toCsvLine } from './csv.js';
import { renderQueryResult } from './query.js';
import { getPath, localDate, plain, statusColour } from './values.js';

export interface Column {
  /** Service field name (dotted for nested), used as the machine-format key. */
  key: string;
  header: string;
  kind?: 'text' | 'date' | 'status' | 'id';
  value?: (row: Record<string, unknown>) => unknown;
}

export interface ListSpec {
  columns: Column[];
  /** Every field name --json may select (defaults to column keys plus the rows' own keys). */
  fields?: string[];
}

export interface ObjectSpec {
  /** The header shown on a TTY as label: value lines. */
  fields: Column[];
  /** Nested tables shown under the header on a TTY (sections, skills, …). */
  sections?: Array<{ title: string; rows: Array<Record<string, unknown>>; columns: Column[] }>;
}

type Rows = Iterable<Record<string, unknown>> | AsyncIterable<Record<string, unknown>>;

export class Printer {
  readonly c: ChalkInstance;
  constructor(private readonly ctx: Context) {
    this.c = new Chalk({ level: ctx.io.color ? 1 : 0 });
  }

  private write(s: string) {
    this.ctx.io.stdout.write(s);
  }

  /**
   * The late `--json a,b` check, against what this output can hold. Fields the command declared
   * (checked before it ran, see cli/json-fields.ts) count as valid too: a field absent from this
   * particular row (an optional one) must not be refused after it was accepted up front.
   */
  private check(valid: Iterable<string>): void {
    checkFields(this.ctx.globals.fields, new Set([...valid, ...(this.ctx.jsonFields ?? [])]));
  }

  /** Prints a list; rows may stream (an async iterable) for NDJSON, JSON, CSV and TSV. */
  async list(rows: Rows, spec: ListSpec): Promise<number> {
    const { output, fields, query } = this.ctx.globals;
    if (query) {
      // every page first: the query sees the whole list as one array
      const all: Array<Record<string, unknown>> = [];
      for await (const row of rows) all.push(row);
      this.write(renderQueryResult(query.run(all), output === 'ndjson'));
      return all.length;
    }
    const valid = () => spec.fields ?? spec.columns.map((c) => c.key);
    if (spec.fields) this.check(spec.fields);
    let n = 0;
    switch (output) {
      case 'json': {
        this.write('[');
        for await (const row of rows) {
          if (!spec.fields && n === 0) this.check([...valid(), ...Object.keys(row)]);
          this.write(`${n++ ? ',' : ''}\n  ${JSON.stringify(pickFields(row, fields))}`);
        }
        this.write(n ? '\n]\n' : ']\n');
        return n;
      }
      case 'ndjson':
        for await (const row of rows) {
          if (!spec.fields && n === 0) this.check([...valid(), ...Object.keys(row)]);
          this.write(`${JSON.stringify(pickFields(row, fields))}\n`);
          n++;
        }
        return n;
      case 'csv': {
        const keys = fields ?? spec.columns.map((c) => c.key);
        const safe = { formulaSafe: this.ctx.globals.csvSafe };
        this.write(toCsvLine(keys, safe));
        for await (const row of rows) {
          this.write(toCsvLine(keys.map((k) => cell(row, spec.columns, k)), safe));
          n++;
        }
        return n;
      }
      case 'tsv':
        for await (const row of rows) {
          this.write(`${spec.columns.map((col) => tsvCell(plain(cellOf(row, col)))).join('\t')}\n`);
          n++;
        }
        return n;
      default: {
        const all: Array<Record<string, unknown>> = [];
        for await (const row of rows) all.push(row);
        if (all.length) this.write(`${this.table(all, spec.columns)}\n`);
        else this.ctx.info('No results.');
        return all.length;
      }
    }
  }

  /** Prints one object: an object under --json/--ndjson, key/value lines otherwise. */
  object(obj: Record<string, unknown>, spec: ObjectSpec, jsonFields?: string[]): void {
    const { output, fields, query } = this.ctx.globals;
    if (query) {
      this.write(renderQueryResult(query.run(obj), output === 'ndjson'));
      return;
    }
    if (output === 'json' || output === 'ndjson') {
      this.check(jsonFields ?? Object.keys(obj));
      const picked = pickFields(obj, fields);
      this.write(output === 'json' ? `${JSON.stringify(picked, null, 2)}\n` : `${JSON.stringify(picked)}\n`);
      return;
    }
    if (output === 'csv') {
      const keys = fields ?? spec.fields.map((f) => f.key);
      const safe = { formulaSafe: this.ctx.globals.csvSafe };
      this.write(toCsvLine(keys, safe));
      this.write(toCsvLine(keys.map((k) => cell(obj, spec.fields, k)), safe));
      return;
    }
    if (output === 'tsv') {
      for (const f of spec.fields) this.write(`${f.key}\t${tsvCell(plain(cellOf(obj, f)))}\n`);
      for (const s of spec.sections ?? [])
        for (const row of s.rows) this.write(`${s.columns.map((col) => tsvCell(plain(cellOf(row, col)))).join('\t')}\n`);
      return;
    }
    const width = Math.max(...spec.fields.map((f) => f.header.length));
    for (const f of spec.fields) {
      this.write(`${this.c.bold(f.header.padEnd(width))}  ${this.pretty(cellOf(obj, f), f)}\n`);
    }
    for (const s of spec.sections ?? []) {
      if (!s.rows.length) continue;
      this.write(`\n${this.c.bold(s.title)}\n${this.table(s.rows, s.columns)}\n`);
    }
  }

  table(rows: Array<Record<string, unknown>>, columns: Column[]): string {
    const t = new Table({
      head: columns.map((c) => this.c.bold(c.header)),
      style: { head: [], border: this.ctx.io.color ? ['grey'] : [] },
      wordWrap: false,
    });
    for (const row of rows) t.push(columns.map((col) => this.pretty(cellOf(row, col), col)));
    // Keep the rule under the header but none between rows: twice as many rows fit on a screen.
    const lines = t.toString().split('\n');
    const isRule = (line: string) => /^(\u001b\[[0-9;]*m)*├/.test(line);
    const headerRule = lines.findIndex(isRule);
    return lines.filter((line, i) => !isRule(line) || i === headerRule).join('\n');
  }

  /** A TTY cell: service text escaped first, then our own colour added. */
  private pretty(v: unknown, col: Column): string {
    if (col.kind === 'date') return escapeCell(localDate(v));
    if (col.kind === 'status' && typeof v === 'string') return statusColour(escapeCell(v), this.c);
    return escapeCell(plain(v));
  }
}

function cellOf(row: Record<string, unknown>, col: Column): unknown {
  return col.value ? col.value(row) : getPath(row, col.key);
}

function cell(row: Record<string, unknown>, cols: Column[], key: string): unknown {
  const col = cols.find((c) => c.key === key);
  return col ? cellOf(row, col) : getPath(row, key);
}

/** Tabs and newlines inside a value would break the row structure scripts rely on. */
function tsvCell(s: string): string {
  return escapeCell(s.replace(/[\t\r\n]+/g, ' '));
}
