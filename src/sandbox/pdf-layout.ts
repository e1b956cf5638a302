// Page geometry, colours and drawing helpers shared by the report PDF's parts (pdf.ts,
// pdf-sections.ts).
import { performanceCategory } from './scoring.js';

export type Doc = PDFKit.PDFDocument;
export type Font = 'Helvetica' | 'Helvetica-Bold';

export const PAGE_W = 595.28; // A4 in points
export const PAGE_H = 841.89;
export const M = 48; // side margin
export const W = PAGE_W - 2 * M;
export const TABLE_END = PAGE_H - 74; // rows stop here; the footer sits below
export const INK = '#0f172a';
export const MUTED = '#64748b';
export const TRACK = '#e2e8f0';
export const CATEGORY_COLOUR: Record<string, string> = {
  Excellent: '#15803d',
  Good: '#1d4ed8',
  Average: '#b45309',
  'Needs Improvement': '#b91c1c',
};
export const colourOfPercent = (pct: number | null) =>
  pct === null ? MUTED : CATEGORY_COLOUR[performanceCategory(pct)]!;

export interface Put {
  font?: Font;
  size: number;
  colour?: string;
  /** Cut to this width (with `…`); with `right`, aligned to its right edge. */
  width?: number;
  right?: boolean;
}
/** Draws one line of text at a position (cut to its box first). */
export type PutFn = (text: string, x: number, y: number, o: Put) => void;
/** Service text made safe for the page's fonts (and noted when something became `?`). */
export type Safe = (s: string | null | undefined) => string;

/** A bar `w` wide filled to `pct` (null: empty track). */
export function drawBar(
  doc: Doc,
  x: number,
  y: number,
  w: number,
  h: number,
  pct: number | null,
  colour: string,
): void {
  const r = h / 2;
  doc.roundedRect(x, y, w, h, r).fill(TRACK);
  const filled = pct === null ? 0 : (w * Math.min(100, Math.max(0, pct))) / 100;
  if (filled >= h) doc.roundedRect(x, y, filled, h, r).fill(colour);
  else if (filled > 0) doc.rect(x, y, filled, h).fill(colour);
}
