// Horizontal bars for terminal pictures (report, stats). Unicode block elements give eighths of
// a cell; where a terminal cannot be trusted with them (TERM=dumb, --ascii) the bar is `#` and `.`.
// Shared by every command that draws: one look everywhere.

export interface BarStyle {
  /** `#`/`.` instead of block elements. */
  ascii: boolean;
}

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/**
 * A bar `width` cells wide, filled to `fraction` (clamped to 0..1; NaN draws empty). The result
 * is always exactly `width` characters, so bars line up in columns.
 */
export function bar(fraction: number, width: number, style: BarStyle): string {
  const cells = Math.max(0, Math.floor(width));
  const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  if (style.ascii) {
    const filled = Math.round(f * cells);
    return '#'.repeat(filled) + '.'.repeat(cells - filled);
  }
  const eighths = Math.round(f * cells * 8);
  const full = Math.floor(eighths / 8);
  const part = full < cells ? EIGHTHS[eighths % 8] : '';
  const used = full + (part ? 1 : 0);
  return '█'.repeat(full) + part + '░'.repeat(cells - used);
}

/** Whether the environment asks for ASCII pictures: `TERM=dumb` (a flag can force it as well). */
export function wantsAscii(env: NodeJS.ProcessEnv, flag?: boolean): boolean {
  return flag === true || env.TERM === 'dumb';
}
