// A one-line progress bar on stderr, only when stderr is a terminal (silent when piped or in
// CI). Ours rather than cli-progress: it is one line redrawn at 10 Hz, and adding a dependency
// (and its lockfile churn) for that was not worth it.
import type { Writable } from 'node:stream';
import { formatRate } from '../util/rate.js';

export interface ProgressOptions {
  stream: Writable;
  enabled: boolean;
  total: number;
  label: string;
  now?: () => number;
  /** The run's pace (requests a second) when it is paced, else null (src/api/pace.ts). */
  pace?: () => number | null;
}

/** The current pace is items done over the last few seconds. */
const RECENT_MS = 3000;

export class Progress {
  private done = 0;
  private readonly started: number;
  private timer: NodeJS.Timeout | null = null;
  private readonly now: () => number;
  /** [time, done] as drawn, the last RECENT_MS of them. */
  private samples: Array<[number, number]> = [];

  constructor(private readonly o: ProgressOptions) {
    this.now = o.now ?? Date.now;
    this.started = this.now();
    if (o.enabled && o.total > 0) {
      this.timer = setInterval(() => this.render(), 100);
      this.timer.unref();
    }
  }

  tick(n = 1): void {
    this.done += n;
  }

  /** The line as it would be drawn (exported for tests). */
  line(width = 80): string {
    const { total, label } = this.o;
    const now = this.now();
    this.samples.push([now, this.done]);
    while (this.samples.length > 1 && this.samples[0]![0] < now - RECENT_MS) this.samples.shift();
    const [since, doneThen] = this.samples[0]!;
    // the current pace: over the last seconds (since the start while that is shorter)
    const recent = now - since >= 500 ? [now - since, this.done - doneThen] : [now - this.started, this.done];
    const rate = recent[1]! / Math.max(0.001, recent[0]! / 1000);
    const left = total - this.done;
    const eta = rate > 0 ? formatSeconds(left / rate) : '?';
    const pct = total ? Math.floor((this.done / total) * 100) : 100;
    const paced = this.o.pace?.();
    const pace = paced == null ? '' : ` (paced ${formatRate(paced)})`;
    const tail = ` ${this.done}/${total} ${pct}% · ${rate.toFixed(rate < 10 ? 1 : 0)}/s${pace} · ETA ${eta}`;
    const barWidth = Math.max(10, Math.min(30, width - label.length - tail.length - 4));
    const filled = total ? Math.round((this.done / total) * barWidth) : barWidth;
    return `${label} [${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}]${tail}`;
  }

  private render(): void {
    const width = (this.o.stream as { columns?: number }).columns ?? 80;
    this.o.stream.write(`\r\u001b[2K${this.line(width)}`);
  }

  /** Clears the line so the summary starts on a clean row. */
  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    this.o.stream.write('\r\u001b[2K');
  }
}

export function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  const t = Math.round(s);
  if (t < 60) return `${t}s`;
  if (t < 3600) return `${Math.floor(t / 60)}m${String(t % 60).padStart(2, '0')}s`;
  return `${Math.floor(t / 3600)}h${String(Math.floor((t % 3600) / 60)).padStart(2, '0')}m`;
}
