// The pace of a bulk run: how fast requests may leave, found from the service's 429s, so that a
// run of thousands meets the service's limit without being told it.
// The service publishes no limit, sends no rate-limit headers and no Retry-After, so a 429 is the
// only signal, and the limit it enforces is a rate: at 20 ms a request, 10 requests a second is
// 0.2 in flight, which no concurrency can express (Little's law). So the controlled quantity is
// the send rate, and the concurrency (--concurrency, a ceiling) follows from it.
//
// The controller is the AWS SDKs' adaptive retry mode's design (a client-side token bucket
// switched on by the first throttle, its rate cut on each throttle and grown along TCP CUBIC's
// curve), with two changes for a service that says nothing: the rate to return to (CUBIC's W_max)
// is the rate the service actually admitted since the previous cut — over a cycle that starts and
// ends with the service's bucket empty, that is the service's rate itself, whatever its burst —
// and the cut is gentle (×0.95) because that estimate is good. One cut per round trip: the 429s
// of requests sent before a cut are that cut's own (TCP's one reduction per window).
// Until the first 429 nothing is paced: where no limit binds, a run is as fast as before.
// `--rate N/s` paces from the start and is never exceeded. docs/assumptions.md, "Pace".

/** What the transport asks before each attempt and tells after each answer. */
export interface Gate {
  /** Books the next send: how long to wait first, and the slot's time (handed back to `answered`). */
  reserve(): { waitMs: number; at: number };
  /** Holds every request back this long (a Retry-After). */
  hold(ms: number): void;
  /**
   * The answer to the request sent in slot `at`: a 429 (`throttled`) or anything else; `told`: the
   * 429 came with a Retry-After (the transport holds everyone for it; the pace is not cut).
   */
  answered(at: number, throttled: boolean, told?: boolean): void;
  /** True when a 429 slows the pace (the retry takes the next paced slot) rather than a backoff. */
  readonly adaptive: boolean;
}

/** The cut: the new rate is this share of the rate the service admitted. */
export const CUT = 0.95;
/** Seconds CUBIC's curve takes to climb back to the rate of the cut (and as long to probe past it). */
export const RECOVERY_S = 8;
/**
 * CUBIC's constant, relative to the rate of the cut; at least C_MIN (req/s per s³), so a low first estimate is soon
 * left behind.
 */
const C = (1 - CUT) / RECOVERY_S ** 3;
const C_MIN = 0.0003;
/**
 * A cycle the client itself held back (a small bucket keeps no unused tokens) measures the client: never below this
 * share of the rate refused.
 */
const FLOOR = 0.9;
const MIN_RATE = 0.2;
const WINDOW_MS = 1000;

export interface PaceOptions {
  /** `--rate`: requests per second never exceeded, paced from the first request. */
  cap?: number;
  now?: () => number;
}

export class Pace implements Gate {
  readonly adaptive = true;
  private readonly now: () => number;
  private readonly cap: number;
  /** Requests per second now; Infinity: not paced (no 429 yet, no --rate). */
  private rate: number;
  private wmax = 0;
  private c = C;
  private k = RECOVERY_S;
  private cutAt = -Infinity;
  private admittedAtCut = 0;
  private next = 0;
  private until = 0;
  /** Times of the answers of the last second (a queue from `head`). */
  private recent: number[] = [];
  private head = 0;
  /** Answers that were not 429, and 429s, since the start. */
  admitted = 0;
  throttled = 0;

  constructor(o: PaceOptions = {}) {
    this.now = o.now ?? (() => performance.now());
    this.cap = o.cap ?? Infinity;
    this.rate = this.cap;
  }

  /** The paced rate (requests per second), or null while nothing is paced. */
  current(): number | null {
    return Number.isFinite(this.rate) ? this.rate : null;
  }

  reserve(): { waitMs: number; at: number } {
    const now = this.now();
    let at = Math.max(now, this.until);
    if (Number.isFinite(this.rate)) {
      at = Math.max(at, this.next);
      this.next = at + 1000 / this.rate;
    }
    return { waitMs: at - now, at };
  }

  hold(ms: number): void {
    this.until = Math.max(this.until, this.now() + ms);
  }

  answered(at: number, throttled: boolean, told = false): void {
    const now = this.now();
    if (!throttled) {
      this.admitted++;
      this.recent.push(now);
      if (this.recent.length - this.head > 4096) this.lastSecond(now); // unpaced runs keep a second only, too
      this.grow(now);
      return;
    }
    this.throttled++;
    // A Retry-After is the service pacing the client itself: that wait is kept (the whole pool
    // holds) and the pace is left alone, so 429s that do not come from a rate (a fault, a quota
    // for a while) do not drive the pace down to nothing.
    if (told) return;
    if (at < this.cutAt) return; // sent before the last cut: that cut answered it already
    const since = (now - this.cutAt) / 1000;
    const r = this.rate;
    // the service's rate: what it admitted since the previous cut (a cycle of 2 s or more, which starts
    // and ends with its bucket empty), else in the last second; never above the rate just refused
    const measured =
      since >= 2 && since < Infinity ? (this.admitted - this.admittedAtCut) / since : this.lastSecond(now);
    const wmax = Math.min(r, Math.max(measured, since >= 2 && since < Infinity ? FLOOR * r : 0));
    this.wmax = Math.min(this.cap, Math.max(MIN_RATE, wmax));
    this.c = Math.max(C * this.wmax, C_MIN);
    this.k = Math.cbrt((this.wmax * (1 - CUT)) / this.c);
    this.rate = Math.max(MIN_RATE, this.wmax * CUT);
    this.cutAt = now;
    this.admittedAtCut = this.admitted;
    this.next = Math.max(this.next, now + 1000 / this.rate);
  }

  /** Along CUBIC's curve from the cut; never above the cap, nor far above what is used. */
  private grow(now: number): void {
    if (!Number.isFinite(this.rate) || this.rate >= this.cap || this.cutAt === -Infinity) return;
    // CUBIC's curve: back to the rate of the cut in k seconds, then probing past it
    const t = (now - this.cutAt) / 1000 - this.k;
    const target = this.wmax + this.c * t * t * t;
    // a run held back by its ceiling or its source must not bank a rate it never tried
    const used = this.lastSecond(now);
    this.rate = Math.min(this.cap, Math.max(this.rate, Math.min(target, 2 * used + 1)));
  }

  private lastSecond(now: number): number {
    while (this.head < this.recent.length && this.recent[this.head]! <= now - WINDOW_MS) this.head++;
    if (this.head > 1024) {
      this.recent = this.recent.slice(this.head);
      this.head = 0;
    }
    return ((this.recent.length - this.head) * 1000) / WINDOW_MS;
  }
}
