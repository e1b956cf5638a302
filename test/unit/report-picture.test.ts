// The report picture on its own: hostile and wide service text stays within the width, escaped,
// with and without colour; points that are not numbers leave a row out instead of drawing NaN.
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { renderPicture } from '../../src/commands/report/shared/picture.js';
import { displayWidth } from '../../src/output/width.js';

const report = {
  testInvitationId: 900123,
  candidateName: 'Eve\u001b]0;pwned\u0007 王小明 Kamau-Otieno-Wanjiru the Third of Nairobi',
  candidateEmail: 'eve.kamau-otieno-wanjiru@a-very-long-university-domain.example',
  testName: 'Senior Distributed Systems Engineer — 東京 office, second round (take-home)',
  status: 'Complete',
  attemptedOn: '2026-11-21T19:05:18Z',
  candidatePoints: 91,
  totalTestPoints: 130,
  scorePercentage: 70,
  PerformanceCategory: 'Good',
  sections: [
    {
      sectionId: 1,
      sectionName: 'Concurrency, memory models and the \u202eJava Memory Model',
      candidateScore: 40,
      sectionScore: 60,
      noOfQue: 6,
      sectionTime: 45,
      sectionTimeTaken: 2000,
      Skills: [{ qbId: 11, qbName: '並行処理とロックの設計と実装', candidateQbScore: 20, qbScore: 30, noOfQue: 3 }],
    },
    { sectionId: 2, sectionName: 'Scored later', candidateScore: null, sectionScore: 70, noOfQue: 4 },
    {
      sectionId: 3,
      sectionName: 'Design',
      candidateScore: 51,
      sectionScore: 70,
      noOfQue: 4,
      sectionTime: 30,
      sectionTimeTaken: 1200,
    },
  ],
};

describe('renderPicture', () => {
  for (const width of [40, 60, 80, 160])
    for (const level of [0, 1] as const)
      it(`${width} columns, colour ${level ? 'on' : 'off'}: every line fits, service text escaped`, () => {
        const out = renderPicture(report, { width, ascii: false, c: new Chalk({ level }) });
        for (const line of out.split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
        expect(out).not.toMatch(/[\u0007\u202e]|\u001b\]/);
        expect(out).toMatch(/91 \/ 130 \(70 %\)/);
        expect(out).not.toContain('NaN');
        expect(out).not.toContain('Scored later'); // no points: no bar
        if (level) expect(out).toContain('\u001b[');
        else expect(out).not.toContain('\u001b');
      });

  it('160 columns: names whole, escapes visible, minutes summed', () => {
    const out = renderPicture(report, { width: 160, ascii: true, c: new Chalk({ level: 0 }) });
    expect(out).toContain('Eve\\x1b]0;pwned\\x07 王小明 Kamau-Otieno-Wanjiru the Third of Nairobi');
    expect(out).toContain('the \\u202eJava'); // section names get at most 30 % of the width
    expect(out).toMatch(/^Time {6}53 min used of 75 min allowed$/m);
    expect(out).toMatch(/^ {2}Concurrency.*… +#+\.+ {2}20 \/ 30 {3}67 %$/m);
    expect(out).toMatch(/^Attempted \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/m); // the zone named (TZ=UTC in tests)
  });

  it('numbers sent as strings are read as numbers; no points at all is "No result yet"', () => {
    const c = new Chalk({ level: 0 });
    const asText = renderPicture(
      { ...report, candidatePoints: '91', totalTestPoints: '130', scorePercentage: '70' },
      { width: 80, ascii: true, c },
    );
    expect(asText).toMatch(/^Score {5}91 \/ 130 \(70 %\) {2}#+\.+$/m);
    const pending = renderPicture(
      { ...report, status: 'In Progress', candidatePoints: null, scorePercentage: null },
      { width: 80, ascii: true, c },
    );
    expect(pending).toMatch(/^Score {5}No result yet \(In Progress\)$/m);
    expect(pending).not.toMatch(/Sections|Skills|#/);
  });
});
