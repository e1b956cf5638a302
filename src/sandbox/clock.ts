// The sandbox clock: real time plus an adjustable offset. Every timestamp the sandbox writes
// comes from here, so advancing it (control API) moves expiry, "attempted on" and list ranges.
// It can also be frozen (time stands still until advanced), for deterministic scripts and tests.
// Its setting lives in the sandbox's state (src/sandbox/store.ts), shared by every process on it.
export class SandboxClock {
  constructor(
    private offsetMs = 0,
    private frozenAtMs: number | null = null,
  ) {}

  now(): number {
    return this.frozenAtMs ?? Date.now() + this.offsetMs;
  }
  get frozen(): boolean {
    return this.frozenAtMs !== null;
  }
  /** Epoch ms the clock is frozen at, or null while it runs. */
  get frozenAt(): number | null {
    return this.frozenAtMs;
  }
  freeze(on: boolean): void {
    if (on && this.frozenAtMs === null) this.frozenAtMs = this.now();
    if (!on && this.frozenAtMs !== null) {
      this.offsetMs = this.frozenAtMs - Date.now();
      this.frozenAtMs = null;
    }
  }
  /** Difference from real time in ms (while frozen: at this instant). */
  get offset(): number {
    return this.frozenAtMs === null ? this.offsetMs : this.frozenAtMs - Date.now();
  }
  advance(ms: number): void {
    if (this.frozenAtMs !== null) this.frozenAtMs += ms;
    else this.offsetMs += ms;
  }
  set(epochMs: number): void {
    if (this.frozenAtMs !== null) this.frozenAtMs = epochMs;
    else this.offsetMs = epochMs - Date.now();
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
