// Cohort statistics over reports (report stats, the HTML digest of report export) — pure.
// Reports are read tolerantly: a missing or non-numeric value leaves that report out of the
// figure it feeds instead of failing the whole run. Percentiles interpolate linearly between
// ranks (numpy's default, Excel's PERCENTILE.INC), so the median of 70 and 80 is 75.

type Row = Record<string, unknown>;

export interface Spread {
  mean: number;
  median: number;
  p25: number;
  p75: number;
  p90: number;
  min: number;
  max: number;
}

export interface Bin {
  /** Lower bound (inclusive), in percent. */
  from: number;
  /** Upper bound (exclusive, except the last bin, which holds 100). */
  to: number;
  count: number;
}

export interface PartAverage {
  id: string | null;
  name: string;
  /** The skill's section (skills only). */
  sectionName?: string | null;
  attempts: number;
  meanPoints: number;
  meanOutOf: number;
  meanPercent: number;
}

export interface Funnel {
  /** Every attempt listed in the window, whatever its end state (see docs/assumptions.md). */
  invited: number;
  /** Attempts the candidate opened: completed + left + terminated. */
  started: number;
  completed: number;
  left: number;
  terminated: number;
  cancelled: number;
  expired: number;
}

export interface CohortStats {
  /** Attempts listed (after the --test filter). */
  count: number;
  /** Reports with a score percentage. */
  scored: number;
  /** Reports that could not be fetched. */
  failed: number;
  /** Score percentage across scored reports; null when none is scored. */
  score: Spread | null;
  histogram: Bin[];
  categories: Array<{ category: string; count: number }>;
  sections: PartAverage[];
  skills: PartAverage[];
  /** Minutes used (sum of the sections' time taken) against minutes allocated; null when no report tells. */
  timeToComplete: (Omit<Spread, 'p25' | 'p75'> & { attempts: number; meanAllocated: number | null }) | null;
}

const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() && Number.isFinite(Number(v))
      ? Number(v)
      : null;
const arr = (v: unknown): Row[] => (Array.isArray(v) ? v.filter((x): x is Row => !!x && typeof x === 'object') : []);
/** Two decimals: JSON without float noise (70.33333333333333). */
export const round2 = (n: number): number => Math.round(n * 100) / 100;

/** The linear-interpolation percentile of sorted values, q in 0..1. */
export function percentile(sorted: readonly number[], q: number): number {
  if (!sorted.length) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export function spread(values: readonly number[]): Spread | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return {
    mean: round2(mean),
    median: round2(percentile(s, 0.5)),
    p25: round2(percentile(s, 0.25)),
    p75: round2(percentile(s, 0.75)),
    p90: round2(percentile(s, 0.9)),
    min: round2(s[0]!),
    max: round2(s.at(-1)!),
  };
}

/** The report's score percentage: `scorePercentage`, else derived from the points. */
export function scorePercent(report: Row): number | null {
  const pct = num(report.scorePercentage);
  if (pct !== null) return pct;
  const points = num(report.candidatePoints);
  const total = num(report.totalTestPoints);
  return points !== null && total ? (points / total) * 100 : null;
}

/** Ten bins of ten points: 0–10, 10–20, …, 90–100 (100 falls in the last). */
export function histogram(percents: readonly number[]): Bin[] {
  const bins: Bin[] = Array.from({ length: 10 }, (_, i) => ({ from: i * 10, to: i * 10 + 10, count: 0 }));
  for (const p of percents) bins[Math.min(9, Math.max(0, Math.floor(p / 10)))]!.count++;
  return bins;
}

class Averages {
  private readonly parts = new Map<
    string,
    {
      id: string | null;
      name: string;
      sectionName?: string | null;
      n: number;
      points: number;
      outOf: number;
      pct: number;
    }
  >();
  add(id: unknown, name: unknown, points: unknown, outOf: unknown, sectionName?: unknown): void {
    const p = num(points);
    const t = num(outOf);
    if (p === null || t === null) return;
    const key = id !== undefined && id !== null ? `#${String(id)}` : `=${String(name)}`;
    let part = this.parts.get(key);
    if (!part) {
      part = {
        id: id === undefined || id === null ? null : String(id),
        name: String(name ?? ''),
        n: 0,
        points: 0,
        outOf: 0,
        pct: 0,
      };
      if (sectionName !== undefined) part.sectionName = sectionName === null ? null : String(sectionName);
      this.parts.set(key, part);
    }
    part.n++;
    part.points += p;
    part.outOf += t;
    part.pct += t ? (p / t) * 100 : 0;
  }
  list(): PartAverage[] {
    return [...this.parts.values()].map((p) => ({
      id: p.id,
      name: p.name,
      ...(p.sectionName !== undefined ? { sectionName: p.sectionName } : {}),
      attempts: p.n,
      meanPoints: round2(p.points / p.n),
      meanOutOf: round2(p.outOf / p.n),
      meanPercent: round2(p.pct / p.n),
    }));
  }
}

/** Skills at the top level (type 2) or inside sections (type 3), each with its section's name. */
function skillsOf(report: Row): Row[] {
  const nested = arr(report.sections).flatMap((s) => arr(s.Skills).map((k) => ({ sectionName: s.sectionName, ...k })));
  return [...arr(report.Skills), ...arr(report.skills), ...nested];
}

/**
 * Statistics of `reports` (v3 report objects, or export summary rows, which carry the same
 * names); `count` is how many attempts were listed, `failed` how many reports were not fetched.
 */
export function cohortStats(reports: readonly Row[], count: number, failed = 0): CohortStats {
  const percents: number[] = [];
  const categories = new Map<string, number>();
  const sections = new Averages();
  const skills = new Averages();
  const used: number[] = [];
  const allocated: number[] = [];
  for (const r of reports) {
    const pct = scorePercent(r);
    if (pct !== null) percents.push(pct);
    if (typeof r.PerformanceCategory === 'string' && r.PerformanceCategory)
      categories.set(r.PerformanceCategory, (categories.get(r.PerformanceCategory) ?? 0) + 1);
    let seconds: number | null = null;
    let minutes: number | null = null;
    for (const s of arr(r.sections)) {
      sections.add(s.sectionId, s.sectionName, s.candidateScore, s.sectionScore);
      const taken = num(s.sectionTimeTaken);
      if (taken !== null) seconds = (seconds ?? 0) + taken;
      const time = num(s.sectionTime);
      if (time !== null) minutes = (minutes ?? 0) + time;
    }
    for (const k of skillsOf(r)) skills.add(k.qbId, k.qbName, k.candidateQbScore, k.qbScore, k.sectionName ?? null);
    if (seconds !== null) {
      used.push(seconds / 60);
      if (minutes !== null) allocated.push(minutes);
    }
  }
  const time = spread(used);
  return {
    count,
    scored: percents.length,
    failed,
    score: spread(percents),
    histogram: histogram(percents),
    categories: [...categories]
      .map(([category, n]) => ({ category, count: n }))
      .sort((a, b) => b.count - a.count || a.category.localeCompare(b.category)),
    sections: sections.list(),
    skills: skills.list(),
    timeToComplete: time
      ? {
          attempts: used.length,
          mean: time.mean,
          median: time.median,
          p90: time.p90,
          min: time.min,
          max: time.max,
          meanAllocated: allocated.length ? round2(allocated.reduce((a, b) => a + b, 0) / allocated.length) : null,
        }
      : null,
  };
}

/** The funnel from the three listings the API offers (completed = Complete, Test Left, Terminated). */
export function funnelOf(completed: readonly Row[], cancelled: readonly Row[], expired: readonly Row[]): Funnel {
  const status = (a: Row) => String(a.testStatus ?? a.status ?? '').toLowerCase();
  const left = completed.filter((a) => status(a) === 'test left').length;
  const terminated = completed.filter((a) => status(a) === 'terminated').length;
  const done = completed.length - left - terminated;
  return {
    invited: completed.length + cancelled.length + expired.length,
    started: completed.length,
    completed: done,
    left,
    terminated,
    cancelled: cancelled.length,
    expired: expired.length,
  };
}
