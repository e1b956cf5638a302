// `report export --html`: one self-contained index.html beside the summary — the cohort's
// numbers, a histogram and section bars (hand-written SVG: a dozen rectangles do not need a
// charts library, and inline SVG keeps the page free of assets), and a sortable table of the
// candidates with links to their PDFs. Every value from the service is hostile input: control and
// bidi characters are shown as escapes (as on a terminal), then HTML-escaped, inside <bdi>.
import { createHash } from 'node:crypto';
import { escapeCell } from '../../../output/escape.js';
import { timeText } from '../../../output/local-time.js';
import { DIGEST_CSS, DIGEST_SCRIPT } from './digest-assets.js';
import type { SummaryRow } from './export-rows.js';
import { cohortStats, scorePercent, type Bin, type CohortStats, type PartAverage } from './stats.js';
import { plural } from '../../../util/plural.js';

export interface DigestMeta {
  state: string;
  from: string;
  to: string;
  /** When the page was made (ISO). */
  generatedAt: string;
  /** The zone its times are shown in, named beside each (the terminal's convention; undefined: the system's). */
  zone?: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text or attribute value, safe in either place. */
export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
const text = (v: unknown): string =>
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
/** A value from the service, as text: visible escapes for controls and bidi, isolated, escaped. */
const service = (v: unknown): string => {
  const s = text(v);
  return s ? `<bdi>${esc(escapeCell(s))}</bdi>` : '';
};
const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() && Number.isFinite(Number(v))
      ? Number(v)
      : null;
const fmt = (n: number | null | undefined): string =>
  n === null || n === undefined ? '–' : Number.isInteger(n) ? String(n) : n.toFixed(1);
const sha256 = (s: string) => createHash('sha256').update(s).digest('base64');

/** A row's sections (null when the service sent none). */
const sectionsOf = (r: SummaryRow): Array<Record<string, unknown>> =>
  Array.isArray(r.sections) ? r.sections.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object') : [];

/** Status → one of a fixed set of classes (never the service's text in an attribute name). */
function statusClass(status: unknown): string {
  const s = text(status).toLowerCase();
  if (s.startsWith('complete')) return 'status-complete';
  for (const k of ['left', 'terminated', 'cancelled', 'expired', 'pending']) if (s.includes(k)) return `status-${k}`;
  return 'status-other';
}

/** A PDF name from the journal links only when it is a plain file name in this directory. */
function pdfLink(pdf: unknown): string {
  const name = text(pdf);
  if (!name || /[/\\:]/.test(name) || name.startsWith('.')) return '';
  return `<a href="${esc(encodeURIComponent(name))}">PDF</a>`;
}

function histogramSvg(bins: Bin[]): string {
  const w = 460;
  const h = 200;
  const left = 8;
  const bottom = 24;
  const top = 14;
  const slot = (w - left) / bins.length;
  const most = Math.max(1, ...bins.map((b) => b.count));
  const plot = h - bottom - top;
  const bars = bins
    .map((b, i) => {
      const bh = Math.round((b.count / most) * plot);
      const x = left + i * slot + 3;
      const y = h - bottom - bh;
      const range = `${b.from}–${b.to} %`;
      return (
        `<g><title>${range}: ${b.count}</title><rect class="bar" ` +
        `x="${x.toFixed(1)}" y="${y}" width="${(slot - 6).toFixed(1)}" height="${bh}"/>` +
        `<text class="count" x="${(x + (slot - 6) / 2).toFixed(1)}" y="${y - 3}" ` +
        `text-anchor="middle">${b.count || ''}</text>` +
        `<text x="${(x + (slot - 6) / 2).toFixed(1)}" y="${h - 8}" text-anchor="middle">${b.from}</text></g>`
      );
    })
    .join('');
  return (
    `<svg class="histogram" viewBox="0 0 ${w} ${h}" width="100%" role="img" aria-label="Histogram of score ` +
    `percentages in bins of ten points" xmlns="http://www.w3.org/2000/svg">` +
    `<line x1="${left}" y1="${h - bottom}" x2="${w}" y2="${h - bottom}" ` +
    `stroke="currentColor" stroke-opacity="0.3"/>${bars}</svg>`
  );
}

function partsSvg(parts: PartAverage[], title: string): string {
  if (!parts.length) return `<p class="empty">No ${title.toLowerCase()} in these reports.</p>`;
  const row = 26;
  const w = 460;
  const labelW = 170;
  const barW = w - labelW - 60;
  const h = parts.length * row + 4;
  const bars = parts
    .map((p, i) => {
      const y = i * row + 4;
      const name = p.sectionName ? `${escapeCell(text(p.sectionName))} › ${escapeCell(p.name)}` : escapeCell(p.name);
      const shown = name.length > 28 ? `${name.slice(0, 27)}…` : name;
      const filled = Math.round((Math.min(100, Math.max(0, p.meanPercent)) / 100) * barW);
      return (
        `<g><title>${esc(name)}: ${fmt(p.meanPercent)} % (${fmt(p.meanPoints)} of ${fmt(p.meanOutOf)} points, ` +
        `${plural(p.attempts, 'attempt')})</title>` +
        `<text x="0" y="${y + 14}">${esc(shown)}</text>` +
        `<rect class="track" x="${labelW}" y="${y + 3}" width="${barW}" height="14" rx="2"/>` +
        `<rect class="bar" x="${labelW}" y="${y + 3}" width="${filled}" height="14" rx="2"/>` +
        `<text class="count" x="${labelW + barW + 6}" y="${y + 14}">${fmt(p.meanPercent)} %</text></g>`
      );
    })
    .join('');
  return (
    `<svg class="parts" viewBox="0 0 ${w} ${h}" width="100%" role="img" aria-label="${esc(title)}: mean ` +
    `percentage" xmlns="http://www.w3.org/2000/svg">${bars}</svg>`
  );
}

/** A moment as a <time> element, shown in the digest's zone. */
function timeTag(iso: string, zone: DigestMeta['zone']): string {
  return `<time datetime="${esc(iso)}">${esc(timeText(iso, zone))}</time>`;
}

/** The line under the title: the window, and the tests when there are several. */
function windowText(meta: DigestMeta, tests: readonly string[]): string {
  const several = tests.length > 1 ? ` · ${tests.length} tests: ${tests.map((t) => service(t)).join(', ')}` : '';
  const { state, from, to, zone } = meta;
  return `${esc(state)} attempts from ${timeTag(from, zone)} to ${timeTag(to, zone)}${several}`;
}

function candidatesTable(head: string, body: string): string {
  return (
    `<div class="table-wrap"><table class="sortable" id="candidates"><thead><tr>${head}</tr></thead>\n` +
    `<tbody>\n${body}\n</tbody></table></div>`
  );
}

/** The page, complete: no request leaves it (CSP `default-src 'none'`; style and script by hash). */
export function renderDigest(rows: readonly SummaryRow[], meta: DigestMeta): string {
  const stats = cohortStats(rows, rows.length);
  const sectionNames = [...new Set(rows.flatMap((r) => sectionsOf(r).map((s) => s.sectionName)))];
  const tests = [...new Set(rows.map((r) => text(r.testName)).filter(Boolean))];
  const anyPdf = rows.some((r) => r.pdf);
  const cards = scoreCards(stats);
  const head = tableHead(sectionNames, anyPdf);
  const body = rows.map((r) => tableRow(r, sectionNames, anyPdf)).join('\n');
  const title = `Assessment results${tests.length === 1 ? `: ${escapeCell(tests[0]!)}` : ''}`;
  const csp =
    `default-src 'none'; style-src 'sha256-${sha256(DIGEST_CSS)}'; script-src ` +
    `'sha256-${sha256(DIGEST_SCRIPT)}'; img-src data:; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${esc(title)}</title>
<style>${DIGEST_CSS}</style>
</head>
<body>
<header>
<h1>${esc(title)}</h1>
<p class="meta">${windowText(meta, tests)}</p>
<dl class="cards">${cards.map(([k, v]) => `<div><dt>${esc(k)}</dt><dd>${esc(v)}</dd></div>`).join('')}</dl>
</header>
<main>
<section class="charts">
<div><h2>Score distribution (%, bins of ten)</h2>${histogramSvg(stats.histogram)}</div>
<div><h2>Sections (mean %)</h2>${partsSvg(stats.sections, 'Sections')}</div>
</section>
<h2>Candidates</h2>
${rows.length ? candidatesTable(head, body) : '<p class="empty">No attempts in this window.</p>'}
</main>
<footer>Made by assess report export at ${timeTag(meta.generatedAt, meta.zone)}. Click a column header to sort.</footer>
<script>${DIGEST_SCRIPT}</script>
</body>
</html>
`;
}

/** The headline numbers, one card each. */
function scoreCards(stats: CohortStats): Array<[string, string]> {
  const s = stats.score;
  return [
    ['Attempts', String(stats.count)],
    ['Scored', String(stats.scored)],
    ['Mean %', fmt(s?.mean)],
    ['Median %', fmt(s?.median)],
    ['p25 %', fmt(s?.p25)],
    ['p75 %', fmt(s?.p75)],
    ['p90 %', fmt(s?.p90)],
  ];
}

/** The candidates table's header cells: each a button the page's script sorts by. */
function tableHead(sectionNames: unknown[], anyPdf: boolean): string {
  return [
    '<th scope="col"><button type="button">Name</button></th>',
    '<th scope="col"><button type="button">E-mail</button></th>',
    '<th scope="col"><button type="button">Status</button></th>',
    '<th scope="col" class="num"><button type="button">Points</button></th>',
    '<th scope="col" class="num"><button type="button">%</button></th>',
    '<th scope="col"><button type="button">Category</button></th>',
    ...sectionNames.map((n) => `<th scope="col" class="num"><button type="button">${service(n)}</button></th>`),
    ...(anyPdf ? ['<th scope="col">Report</th>'] : []),
  ].join('');
}

/** One candidate's row; numeric cells carry their value in data-v, for sorting. */
function tableRow(r: SummaryRow, sectionNames: unknown[], anyPdf: boolean): string {
  const pct = scorePercent(r);
  const points = num(r.candidatePoints);
  const total = num(r.totalTestPoints);
  const bySection = new Map(sectionsOf(r).map((x) => [x.sectionName, x]));
  const cells = [
    `<td>${service(r.candidateName)}</td>`,
    `<td>${service(r.candidateEmail)}</td>`,
    `<td class="${statusClass(r.status)}">${service(r.status)}</td>`,
    `<td class="num" data-v="${points ?? ''}">${outOf(points, total)}</td>`,
    `<td class="num" data-v="${pct ?? ''}">${pct === null ? '' : fmt(pct)}</td>`,
    `<td>${service(r.PerformanceCategory)}</td>`,
    ...sectionNames.map((n) => {
      const x = bySection.get(n);
      const got = num(x?.candidateScore);
      const of = num(x?.sectionScore);
      return `<td class="num" data-v="${got ?? ''}">${outOf(got, of)}</td>`;
    }),
    ...(anyPdf ? [`<td>${pdfLink(r.pdf)}</td>`] : []),
  ];
  return `<tr>${cells.join('')}</tr>`;
}

/** `12 / 20`, `12` without a total, nothing without points. */
function outOf(points: number | null, total: number | null): string {
  return points === null ? '' : `${fmt(points)}${total === null ? '' : ` / ${fmt(total)}`}`;
}
