// Durations of flags such as --interval 30s, --timeout 4h, --forward-timeout 500ms:
// a number with a unit (ms, s, m, h, d), units combinable (1h30m); a bare number is seconds.
import { readAs } from './read-as.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds, or null when the text is not a duration. */
export function parseDurationMs(text: string): number | null {
  const s = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(s)) return null;
  let ms = 0;
  for (const [, n, unit] of s.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)) ms += Number(n) * UNIT_MS[unit!]!;
  return Math.round(ms);
}

/** A zod schema for a duration flag, in ms, between min and max (ms). */
export function durationArg(example: string, minMs: number, maxMs: number) {
  return readAs((text, refuse) => {
    const ms = parseDurationMs(text);
    if (ms === null) return refuse(`must be a duration like ${example} (units ms, s, m, h, d)`);
    if (ms < minMs || ms > maxMs) return refuse(`must be from ${fmt(minMs)} to ${fmt(maxMs)}, e.g. ${example}`);
    return ms;
  });
}

export function fmt(ms: number): string {
  if (ms === 0) return '0s';
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
