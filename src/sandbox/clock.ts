// The sandbox clock: real time plus an adjustable offset. Every timestamp the sandbox writes
// comes from here, so advancing it (control API) moves expiry, "attempted on" and list ranges.
export class SandboxClock {
  constructor(private offsetMs = 0) {}

  now(): number {
    return Date.now() + this.offsetMs;
  }
  nowIso(): string {
    return new Date(this.now()).toISOString();
  }
  get offset(): number {
    return this.offsetMs;
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
  set(epochMs: number): void {
    this.offsetMs = epochMs - Date.now();
  }
}

const UNIT_MS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };

/**
 * "3d", "12h", "30m", "45s", combinations like "1d12h", or a number of seconds (number or
 * numeric string). Returns milliseconds, or null when the value is not a duration.
 */
export function parseDuration(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? Math.round(v * 1000) : null;
  if (typeof v !== 'string') return null;
  const s = v.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  if (!/^(\d+[dhms])+$/.test(s)) return null;
  let ms = 0;
  for (const [, n, unit] of s.matchAll(/(\d+)([dhms])/g)) ms += Number(n) * UNIT_MS[unit];
  return ms;
}
