// Progress on stderr: on a terminal a one-line bar redrawn at 10 Hz; piped (a CI log) one plain
// line every 10 s, since a CI system may kill a job that prints nothing for minutes; with -q
// nothing. Ours rather than cli-progress: it is one line, and adding a dependency (and its
// lockfile churn) for that was not worth it.
import type { Writable } from 'node:stream';
import { formatRate } from '../util/rate.js';

/** Runs `fn` every `ms` until the returned stop is called; injected by tests (a clock they move). */
export type Every = (ms: number, fn: () => void) => () => void;

const realEvery: Every = (ms, fn) => {
  const timer = setInterval(fn, ms);
  timer.unref();
  return () => clearInterval(timer);
};

/** How often a piped run says how far it is. */
export const LINE_EVERY_MS = 10_000;

export type ProgressMode = 'bar' | 'lines' | 'off';

/** The bar on a terminal, lines when piped, nothing with -q. */
export function progressMode(io: { stderrIsTTY: boolean }, quiet: boolean): ProgressMode {
  return quiet ? 'off' : io.stderrIsTTY ? 'bar' : 'lines';
}

export interface ProgressOptions {
  stream: Writable;
  /** true is 'bar' (the older spelling); false is 'off'. */
  enabled?: boolean;
  mode?: ProgressMode;
  total: number;
  label: string;
  now?: () => number;
  every?: Every;
  /** The run's pace (requests a second) when it is paced, else null (src/api/pace.ts). */
  pace?: () => number | null;
}

/** The current pace is items done over the last few seconds. */
const RECENT_MS = 3000;

export class Progress {
  private done = 0;
  private readonly started: number;
  private stopTimer: (() => void) | null = null;
  private readonly mode: ProgressMode;
  private readonly now: () => number;
  /** [time, done] as drawn, the last RECENT_MS of them. */
  private samples: Array<[number, number]> = [];
  /** [time, done] at the last plain line. */
  private lastLine: [number, number];

  constructor(private readonly o: ProgressOptions) {
    this.now = o.now ?? Date.now;
    this.started = this.now();
    this.lastLine = [this.started, 0];
    this.mode = o.mode ?? (o.enabled ? 'bar' : 'off');
    const every = o.every ?? realEvery;
    if (o.total > 0 && this.mode === 'bar') this.stopTimer = every(100, () => this.render());
    if (o.total > 0 && this.mode === 'lines') this.stopTimer = every(LINE_EVERY_MS, () => this.writeLine());
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

  /** A plain line for a log: `Inviting: 120 of 2000 (6 %), 12/s, about 2m36s left`. */
  plainLine(): string {
    const now = this.now();
    const [then, doneThen] = this.lastLine;
    this.lastLine = [now, this.done];
    const rate = (this.done - doneThen) / Math.max(0.001, (now - then) / 1000);
    const { total, label } = this.o;
    const pct = Math.floor((this.done / total) * 100);
    const left = rate > 0 ? `, about ${formatSeconds((total - this.done) / rate)} left` : '';
    const paced = this.o.pace?.();
    const pace = paced == null ? '' : ` (paced ${formatRate(paced)})`;
    return `${label}: ${this.done} of ${total} (${pct} %), ${rate.toFixed(rate < 10 ? 1 : 0)}/s${pace}${left}`;
  }

  private render(): void {
    const width = (this.o.stream as { columns?: number }).columns ?? 80;
    this.o.stream.write(`\r\u001b[2K${this.line(width)}`);
  }

  private writeLine(): void {
    this.o.stream.write(`${this.plainLine()}\n`);
  }

  /** Stops the timer; a bar's line is cleared so the summary starts on a clean row. */
  stop(): void {
    if (!this.stopTimer) return;
    this.stopTimer();
    this.stopTimer = null;
    if (this.mode === 'bar') this.o.stream.write('\r\u001b[2K');
  }
}

export function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  const t = Math.round(s);
  if (t < 60) return `${t}s`;
  if (t < 3600) return `${Math.floor(t / 60)}m${String(t % 60).padStart(2, '0')}s`;
  return `${Math.floor(t / 3600)}h${String(Math.floor((t % 3600) / 60)).padStart(2, '0')}m`;
}
