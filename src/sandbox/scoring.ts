// Scores and reports — pure. Points are whole numbers per skill; sections and the test total
// are sums of their parts, so every report adds up, and scorePercentage is
// round(candidatePoints / totalTestPoints × 100) by construction.
import type { Report, ReportType } from '../api/schemas/v3.js';
import type { AttemptResult, SandboxInvitation, SandboxTest, Section } from './model.js';

export const skillPoints = (s: { questions: number; pointsPerQuestion: number }) => s.questions * s.pointsPerQuestion;
export const sectionPoints = (s: Section) => s.skills.reduce((a, k) => a + skillPoints(k), 0);
export const sectionQuestions = (s: Section) => s.skills.reduce((a, k) => a + k.questions, 0);
export const testPoints = (t: SandboxTest) => t.sections.reduce((a, s) => a + sectionPoints(s), 0);
export const testQuestions = (t: SandboxTest) => t.sections.reduce((a, s) => a + sectionQuestions(s), 0);
export const testDuration = (t: SandboxTest) => t.sections.reduce((a, s) => a + s.duration, 0);

/** Splits `amount` whole points over `weights` proportionally (largest remainder); never exceeds a weight. */
export function apportion(amount: number, weights: number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  if (total === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (amount * w) / total);
  const out = exact.map(Math.floor);
  let left = amount - out.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => ({ i, frac: e - Math.floor(e) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    if (out[i] < weights[i]) {
      out[i]++;
      left--;
    }
  }
  return out;
}

/** A stable pseudo-random default score (40–95 %) so unscored simulations still differ. */
export const defaultPercent = (invitationId: number) => 40 + ((invitationId * 37) % 56);

const clampPct = (p: number) => Math.min(100, Math.max(0, p));

/**
 * Builds an attempt result. `sectionPercents[i]` (0–100) scores section i; otherwise `percent`
 * (0–100) is spread over the whole test; otherwise a default derived from the invitation id.
 */
export function scoreAttempt(
  test: SandboxTest,
  invitationId: number,
  opts: { percent?: number; sectionPercents?: number[] } = {},
): AttemptResult {
  let perSection: number[];
  if (opts.sectionPercents && opts.sectionPercents.length) {
    perSection = test.sections.map((s, i) =>
      Math.round(
        (clampPct(opts.sectionPercents![i] ?? opts.sectionPercents![opts.sectionPercents!.length - 1]) / 100) *
          sectionPoints(s),
      ),
    );
  } else {
    const pct = clampPct(opts.percent ?? defaultPercent(invitationId));
    perSection = apportion(Math.round((pct / 100) * testPoints(test)), test.sections.map(sectionPoints));
  }
  return {
    sections: test.sections.map((s, i) => {
      const skills = apportion(perSection[i], s.skills.map(skillPoints));
      const share = 0.5 + ((invitationId + i * 13) % 45) / 100; // 50–94 % of the section's time
      return {
        sectionId: s.sectionId,
        timeTakenSec: Math.round(s.duration * 60 * share),
        skills: s.skills.map((k, j) => ({ qbId: k.qbId, points: skills[j] })),
      };
    }),
  };
}

export function candidatePoints(r: AttemptResult): number {
  return r.sections.reduce((a, s) => a + s.skills.reduce((b, k) => b + k.points, 0), 0);
}

export function performanceCategory(pct: number): string {
  if (pct >= 85) return 'Excellent';
  if (pct >= 70) return 'Good';
  if (pct >= 50) return 'Average';
  return 'Needs Improvement';
}

/** The v3 report JSON for an invitation (sample spelling: `sectionID` in sections). */
export function buildReport(
  test: SandboxTest,
  inv: SandboxInvitation,
  reportType: ReportType,
  pdfReportUrl: string,
): Report {
  const r = inv.result;
  const total = testPoints(test);
  const cand = r ? candidatePoints(r) : null;
  const pct = cand === null ? null : Math.round((cand / total) * 100);
  const sections = r
    ? test.sections.map((s, i) => {
        const got = r.sections[i];
        const Skills = s.skills.map((k, j) => ({
          candidateQbScore: got.skills[j].points,
          qbScore: skillPoints(k),
          noOfQue: k.questions,
          qbId: k.qbId,
          qbName: k.qbName,
          sectionId: s.sectionId,
          sectionName: s.sectionName,
        }));
        return {
          candidateScore: Skills.reduce((a, k) => a + k.candidateQbScore, 0),
          sectionScore: sectionPoints(s),
          noOfQue: sectionQuestions(s),
          sectionID: s.sectionId,
          sectionName: s.sectionName,
          sectionTime: s.duration,
          sectionTimeTaken: got.timeTakenSec,
          Skills,
        };
      })
    : [];
  const report: Record<string, unknown> = {
    testInvitationId: inv.testInvitationId,
    testId: String(test.testId),
    candidateEmail: inv.email,
    candidateName: inv.name,
    attemptedOn: inv.startedAt,
    status: inv.status,
    score: cand,
    scorePercentage: pct,
    candidatePoints: cand,
    totalTestPoints: total,
    testName: test.testName,
    pdfReportUrl: r ? pdfReportUrl : null,
    PerformanceCategory: pct === null ? null : performanceCategory(pct),
    reportType,
  };
  if (reportType === 1) report.sections = sections.map(({ Skills: _skills, ...s }) => s);
  if (reportType === 2) report.Skills = sections.flatMap((s) => s.Skills);
  if (reportType === 3) report.sections = sections;
  return report as Report;
}
