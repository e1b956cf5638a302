// How `report stats` shows its numbers: on a terminal as bar charts (src/output/bars.ts; ASCII
// with TERM=dumb or --ascii), elsewhere as `metric,name,value` rows (CSV with a header, TSV
// without) — one long table, so a new section or skill is a new row, never a new column.
import type { Style } from '../../../output/style.js';
import { bar } from '../../../output/bars.js';
import { escapeCell } from '../../../output/escape.js';
import { displayWidth, truncate } from '../../../output/width.js';
import { timeText } from '../../../output/local-time.js';
import type { CohortStats, Funnel, PartAverage, Spread } from './stats.js';

export interface StatsReport extends CohortStats {
  state: string;
  from: string;
  to: string;
  testId: string | null;
  funnel: Funnel;
}

/** The top-level keys of `--json` (documented in docs/scripting.md). */
export const STATS_FIELDS = [
  'state',
  'from',
  'to',
  'testId',
  'count',
  'scored',
  'failed',
  'score',
  'histogram',
  'categories',
  'sections',
  'skills',
  'funnel',
  'timeToComplete',
] as const;

export interface MetricRow {
  metric: string;
  name: string;
  value: number | string | null;
}

const SPREAD_KEYS = ['mean', 'median', 'p25', 'p75', 'p90', 'min', 'max'] as const;

/** `--csv` / TSV: every number as one row. */
export function metricRows(s: StatsReport): MetricRow[] {
  const rows: MetricRow[] = [];
  const add = (metric: string, name: string, value: number | string | null) => rows.push({ metric, name, value });
  for (const k of ['state', 'from', 'to', 'testId', 'count', 'scored', 'failed'] as const) add(k, '', s[k]);
  for (const k of SPREAD_KEYS) add(`score.${k}`, '', s.score?.[k] ?? null);
  for (const b of s.histogram) add('histogram', `${b.from}-${b.to}`, b.count);
  for (const c of s.categories) add('category', c.category, c.count);
  for (const [kind, parts] of [
    ['section', s.sections],
    ['skill', s.skills],
  ] as const)
    for (const p of parts) {
      const name = p.sectionName ? `${p.sectionName} / ${p.name}` : p.name;
      add(`${kind}.meanPercent`, name, p.meanPercent);
      add(`${kind}.meanPoints`, name, p.meanPoints);
      add(`${kind}.meanOutOf`, name, p.meanOutOf);
    }
  for (const [k, v] of Object.entries(s.funnel)) add('funnel', k, v);
  const t = s.timeToComplete;
  for (const k of ['attempts', 'mean', 'median', 'p90', 'min', 'max', 'meanAllocated'] as const)
    add(`timeToComplete.${k}`, '', t?.[k] ?? null);
  return rows;
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** A label in exactly `width` columns, shortened with `…` (service text: escaped first). */
function label(s: string, width: number): string {
  const e = truncate(escapeCell(s), width);
  return e + ' '.repeat(Math.max(0, width - displayWidth(e)));
}

interface BarItem {
  name: string;
  fraction: number;
  value: string;
  note?: string;
}

type PictureOpts = { columns: number; style: Style; ascii: boolean; zone?: string };

/** The lines of the terminal picture, and how each kind of part is drawn into them. */
class Picture {
  readonly out: string[] = [];
  readonly width: number;

  constructor(readonly opts: PictureOpts) {
    this.width = Math.max(40, Math.min(opts.columns, 120));
  }

  head(t: string): void {
    this.out.push('', this.opts.style.bold(t));
  }

  /** One bar per item, the labels, bars and values each in a column. */
  chart(items: BarItem[]): void {
    if (!items.length) {
      this.out.push('  (none)');
      return;
    }
    const { width } = this;
    const vw = Math.max(...items.map((i) => i.value.length));
    let nw = Math.max(...items.map((i) => (i.note ? i.note.length + 2 : 0)));
    let lw = Math.min(28, Math.max(...items.map((i) => displayWidth(escapeCell(i.name)))));
    // narrow terminals: the note goes first, then the label shrinks; the bar keeps 10 cells
    if (width - lw - vw - nw - 6 < 10) nw = 0;
    lw = Math.max(4, Math.min(lw, width - vw - nw - 6 - 10));
    const bw = Math.max(10, Math.min(40, width - lw - vw - nw - 6));
    for (const i of items)
      this.out.push(
        `  ${label(i.name, lw)}  ${bar(i.fraction, bw, this.opts)}  ${i.value.padStart(vw)}` +
          (nw && i.note ? `  ${i.note}` : ''),
      );
  }

  /** `a · b · c` items, as many on a line as fit. */
  flow(items: string[]): void {
    let line = '';
    for (const item of items) {
      const next = line ? `${line} · ${item}` : `  ${item}`;
      if (line && displayWidth(next) > this.width) {
        this.out.push(line);
        line = `  ${item}`;
      } else line = next;
    }
    this.out.push(line);
  }
}

/** The terminal picture: headline numbers, then one bar chart per part. */
export function renderStats(s: StatsReport, opts: PictureOpts): string {
  const p = new Picture(opts);
  const c = opts.style;
  p.out.push(c.bold(`${s.count} ${s.state} attempt${s.count === 1 ? '' : 's'}`));
  p.flow([
    `from ${timeText(s.from, opts.zone)}`,
    `to ${timeText(s.to, opts.zone)}`,
    ...(s.testId ? [`test ${s.testId}`] : []),
    `${s.scored} scored`,
    ...(s.failed ? [c.red(`${s.failed} report${s.failed === 1 ? '' : 's'} not fetched`)] : []),
  ]);
  p.head('Score (%)');
  if (s.score) p.flow(spreadItems(s.score));
  else p.out.push('  no scored attempt');
  p.head('Histogram of score %');
  const most = Math.max(1, ...s.histogram.map((b) => b.count));
  p.chart(s.histogram.map((b) => ({ name: `${b.from}–${b.to}`, fraction: b.count / most, value: String(b.count) })));
  if (s.categories.length) {
    p.head('Performance category');
    const top = Math.max(1, ...s.categories.map((x) => x.count));
    p.chart(s.categories.map((x) => ({ name: x.category, fraction: x.count / top, value: String(x.count) })));
  }
  p.head('Sections (mean %)');
  p.chart(partBars(s.sections));
  p.head('Skills (mean %)');
  p.chart(partBars(s.skills));
  p.head('Funnel (end states in the window)');
  p.chart(funnelBars(s.funnel));
  p.head('Time to complete (minutes used)');
  const t = s.timeToComplete;
  if (t) p.flow(timeItems(t));
  else p.out.push('  no report says how long it took');
  return `${p.out.join('\n')}\n`;
}

function funnelBars(f: Funnel): BarItem[] {
  const stages: Array<[string, number]> = [
    ['invited', f.invited],
    ['started', f.started],
    ['completed', f.completed],
    ['left', f.left],
    ['terminated', f.terminated],
    ['cancelled', f.cancelled],
    ['expired', f.expired],
  ];
  return stages.map(([name, n]) => ({ name, fraction: f.invited ? n / f.invited : 0, value: String(n) }));
}

function timeItems(t: NonNullable<StatsReport['timeToComplete']>): string[] {
  return [
    `mean ${fmt(t.mean)}`,
    `median ${fmt(t.median)}`,
    `p90 ${fmt(t.p90)}`,
    `min ${fmt(t.min)}`,
    `max ${fmt(t.max)}`,
    ...(t.meanAllocated !== null ? [`${fmt(t.meanAllocated)} allocated`] : []),
    `${t.attempts} attempt${t.attempts === 1 ? '' : 's'}`,
  ];
}

function spreadItems(s: Spread): string[] {
  return [
    `mean ${fmt(s.mean)}`,
    `median ${fmt(s.median)}`,
    `p25 ${fmt(s.p25)}`,
    `p75 ${fmt(s.p75)}`,
    `p90 ${fmt(s.p90)}`,
    `min ${fmt(s.min)}`,
    `max ${fmt(s.max)}`,
  ];
}

function partBars(parts: PartAverage[]): BarItem[] {
  return parts.map((p) => ({
    // the skill first: a shortened label loses its section, not its name
    name: p.sectionName ? `${p.name} (${p.sectionName})` : p.name,
    fraction: p.meanPercent / 100,
    value: `${fmt(p.meanPercent)} %`,
    note: `${fmt(p.meanPoints)} / ${fmt(p.meanOutOf)} points`,
  }));
}
