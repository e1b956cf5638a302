// The PDF's highlights (src/sandbox/pdf-sections.ts): the strongest and the weakest skill, by the
// exact share of points, with the words each line is drawn with collected in place of a page.
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { ReportSection } from '../../src/api/schemas/reports.js';
import { highlights } from '../../src/sandbox/pdf-sections.js';

/** A section of a report, parsed as the sandbox reads one: its skills as [name, points, of]. */
function section(sectionName: string, sectionId: number, skills: Array<[string, number, number]>) {
  return {
    sectionName,
    sectionId,
    candidateScore: skills.reduce((n, [, got]) => n + got, 0),
    sectionScore: skills.reduce((n, [, , of]) => n + of, 0),
    noOfQue: skills.length,
    Skills: skills.map(([qbName, candidateQbScore, qbScore], i) => ({
      qbName,
      qbId: sectionId * 10 + i,
      candidateQbScore,
      qbScore,
      noOfQue: 1,
    })),
  };
}
const parse = (raw: unknown[]) => z.array(ReportSection).parse(raw);

const lines = (raw: unknown[]) => {
  const out: string[] = [];
  highlights(
    parse(raw),
    (v) => String(v ?? ''),
    (text) => out.push(text),
    100,
  );
  return out;
};

describe('the PDF highlights: strongest and weakest skill', () => {
  // the README's report: OOP 33/40 (82.5 %) and Collections 25/30 (83.3 %) both print as 83 %
  const javaCore = section('Core Java', 1, [
    ['OOP', 33, 40],
    ['Collections', 25, 30],
  ]);
  const coding = section('Coding', 2, [
    ['Algorithms', 33, 40],
    ['Debugging', 16, 20],
  ]);

  it('is chosen by the exact share of points, not the rounded percentage', () => {
    expect(lines([javaCore, coding])).toEqual([
      'Highlights',
      'Strongest skill',
      'Collections (Core Java): 83 %',
      'Weakest skill',
      'Debugging (Coding): 80 %',
    ]);
  });

  it('shows a decimal when best and worst would read alike', () => {
    expect(lines([javaCore])).toEqual([
      'Highlights',
      'Strongest skill',
      'Collections (Core Java): 83.3 %',
      'Weakest skill',
      'OOP (Core Java): 82.5 %',
    ]);
  });

  it('says nothing when every skill scored the same share', () => {
    expect(
      lines([
        section('S', 3, [
          ['A', 1, 2],
          ['B', 5, 10],
        ]),
      ]),
    ).toEqual([]);
  });
});
