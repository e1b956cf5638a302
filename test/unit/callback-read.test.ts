// The tolerant reader of completion notifications (src/api/read/callback.ts): every shape the
// vendor documents, names in any casing, numbers as strings, nulls, both date forms; only a body
// that is not an object or has no readable TestInvitationId is "not understood" (with the reason).
// Plus seeded random variants of the documented shapes.
import { describe, expect, it } from 'vitest';
import { isoUtc, readCallback, vendorWallClock } from '../../src/api/read/callback.js';
import { parseJsonLossless } from '../../src/api/read/body.js';
import { seededRandom } from '../../src/sandbox/fault-spec.js';

const V3 = {
  CandidateEmailId: 'ann@example.com',
  AttemptedOn: '09-Oct-2020 06:51 PM',
  AttemptedOnUtc: '2020-10-09T13:21:53',
  TotalScore: 130,
  CandidateScore: 104,
  ReportPDFUrl: 'https://x.test/v3/reports/900100/pdf',
  TestInvitationId: 900100,
  Status: 'Complete',
  PerformanceCategory: 'Good',
};
/** The spec's v2 object: six fields. */
const V2 = {
  CandidateEmailId: 'bo@example.com',
  AttemptedOn: '2020-10-09T13:21:53',
  TotalScore: 10,
  CandidateScore: 7,
  ReportPDFUrl: 'https://x.test/r.pdf',
  TestInvitationId: 12,
};
/** The older vendor page: BaseImgUrl, no Status. */
const OLDER = { ...V2, BaseImgUrl: 'https://x.test/img/', TestInvitationId: 13 };

const omit = (o: Record<string, unknown>, ...keys: string[]) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

describe('readCallback: the documented shapes', () => {
  it('reads the full v3 object, the spec v2 six-field object and the older shape with BaseImgUrl and no Status', () => {
    expect(readCallback(V3)).toMatchObject({
      ok: true,
      version: 'v3',
      invitationId: '900100',
      status: 'Complete',
      notes: [],
      attemptedAtUtc: '2020-10-09T13:21:53Z',
    });
    expect(readCallback(V2)).toMatchObject({ ok: true, version: 'v2', invitationId: '12', status: null, notes: [] });
    const older = readCallback(OLDER);
    expect(older).toMatchObject({ ok: true, version: 'v2', invitationId: '13', status: null, notes: [] });
    expect(older.value.BaseImgUrl).toBe('https://x.test/img/');
  });

  it('reads a v3 body missing ReportPDFUrl, AttemptedOnUtc or PerformanceCategory (each, and all three)', () => {
    for (const missing of [
      ['ReportPDFUrl'],
      ['AttemptedOnUtc'],
      ['PerformanceCategory'],
      ['ReportPDFUrl', 'AttemptedOnUtc', 'PerformanceCategory'],
    ]) {
      const r = readCallback(omit(V3, ...missing));
      expect(r, missing.join(',')).toMatchObject({
        ok: true,
        version: 'v3',
        invitationId: '900100',
        status: 'Complete',
      });
      expect(r.problem).toBeUndefined();
    }
  });

  it('reads names in any casing, numbers as strings, nulls, and a status in another spelling', () => {
    const r = readCallback({
      candidateEmailID: 'x@example.com',
      attempted_on_utc: '2020-10-09T13:21:53Z',
      TOTALSCORE: '130',
      candidatescore: ' 97.5 ',
      reportPdfUrl: null,
      testinvitationid: '900101',
      status: 'completed',
      performanceCategory: null,
    });
    expect(r).toMatchObject({ ok: true, version: 'v3', invitationId: '900101', status: 'Complete', notes: [] });
    expect(r.value).toMatchObject({
      CandidateEmailId: 'x@example.com',
      TotalScore: 130,
      CandidateScore: 97.5,
      TestInvitationId: 900101,
      ReportPDFUrl: null,
    });
    const allNull = readCallback({
      TestInvitationId: 7,
      CandidateEmailId: null,
      AttemptedOn: null,
      TotalScore: null,
      CandidateScore: null,
      ReportPDFUrl: null,
      Status: null,
    });
    expect(allNull).toMatchObject({ ok: true, version: 'v2', invitationId: '7', status: null, notes: [] });
  });

  it('keeps a 64-bit id exact (read losslessly from the text) and reads a score that is not a number past, with a note', () => {
    const text = JSON.stringify({ ...V3, TestInvitationId: 0 }).replace(
      '"TestInvitationId":0',
      '"TestInvitationId":9223372036854775807',
    );
    expect(readCallback(parseJsonLossless(text)).invitationId).toBe('9223372036854775807');
    const odd = readCallback({ ...V3, TotalScore: 'ten', AttemptedOn: 'yesterday' });
    expect(odd.ok).toBe(true);
    expect(odd.notes.join(' | ')).toMatch(
      /AttemptedOn "yesterday" is not a documented date form.*\| TotalScore "ten" is not a number/,
    );
    expect(odd.value.TotalScore).toBe('ten'); // kept as sent
  });

  it('reads both documented date forms', () => {
    expect(isoUtc('2020-10-09T13:21:53')).toBe('2020-10-09T13:21:53Z');
    expect(isoUtc('2020-10-09T13:21:53.123Z')).toBe('2020-10-09T13:21:53Z');
    expect(isoUtc('2020-10-09T18:51:53+05:30')).toBe('2020-10-09T13:21:53Z');
    expect(isoUtc('09-Oct-2020 06:51 PM')).toBeNull();
    expect(vendorWallClock('09-Oct-2020 06:51 PM')).toBe('2020-10-09T18:51:00');
    expect(vendorWallClock('1-jan-2021 12:05 am')).toBe('2021-01-01T00:05:00');
    expect(readCallback({ TestInvitationId: 1, AttemptedOn: '2020-10-09T13:21:53' }).attemptedAtUtc).toBe(
      '2020-10-09T13:21:53Z',
    );
    expect(readCallback({ TestInvitationId: 1, AttemptedOn: '09-Oct-2020 06:51 PM' }).notes).toEqual([]);
  });

  it('cannot understand a body that is not an object or has no readable TestInvitationId, and says why', () => {
    expect(readCallback([1, 2])).toMatchObject({
      ok: false,
      problem: 'the body is a list, not a JSON object',
      invitationId: null,
    });
    expect(readCallback(null)).toMatchObject({ ok: false, problem: 'the body is null, not a JSON object' });
    expect(readCallback('text')).toMatchObject({ ok: false, problem: 'the body is a string, not a JSON object' });
    expect(readCallback({ Status: 'Complete' })).toMatchObject({
      ok: false,
      problem: 'TestInvitationId is missing',
      status: 'Complete',
      version: 'v3',
    });
    expect(readCallback({ ...V3, TestInvitationId: 'x1' })).toMatchObject({
      ok: false,
      problem: 'TestInvitationId "x1" is not an id',
    });
  });
});

const recase = (k: string, r: () => number) => {
  const pick = Math.floor(r() * 4);
  if (pick === 0) return k.toLowerCase();
  if (pick === 1) return k.toUpperCase();
  if (pick === 2) return k[0]!.toLowerCase() + k.slice(1);
  return k.replace(/([a-z])([A-Z])/g, '$1_$2');
};

describe('readCallback: seeded random variants of the documented shapes', () => {
  it('reads 500 variants (casing, strings for numbers, nulls, missing optional fields, date forms, extra fields)', () => {
    const r = seededRandom(20260301);
    const statuses: Array<[string, string]> = [
      ['Complete', 'Complete'],
      ['completed', 'Complete'],
      ['In Progress', 'In Progress'],
      ['inprogress', 'In Progress'],
      ['Test Left', 'Test Left'],
      ['TERMINATED', 'Terminated'],
    ];
    for (let i = 0; i < 500; i++) {
      const seedNote = `variant ${i}`;
      const base: Record<string, unknown> = r() < 0.3 ? { ...V2 } : r() < 0.5 ? { ...OLDER } : { ...V3 };
      const id = 100_000 + Math.floor(r() * 900_000);
      base.TestInvitationId = r() < 0.5 ? id : String(id);
      const [sent, canon] = statuses[Math.floor(r() * statuses.length)]!;
      if ('Status' in base) base.Status = sent;
      if (r() < 0.5) base.TotalScore = String(base.TotalScore);
      if (r() < 0.3) base.AttemptedOn = r() < 0.5 ? '09-Oct-2020 06:51 PM' : '2020-10-09T13:21:53Z';
      for (const k of ['ReportPDFUrl', 'PerformanceCategory', 'AttemptedOnUtc', 'CandidateScore']) {
        const dice = r();
        if (dice < 0.2) delete base[k];
        else if (dice < 0.4 && k in base) base[k] = null;
      }
      if (r() < 0.3) base[`Extra${i}`] = { nested: i };
      const body = Object.fromEntries(
        Object.entries(base).map(([k, v]) => [k === 'TestInvitationId' && r() < 0.5 ? k : recase(k, r), v]),
      );
      const got = readCallback(JSON.parse(JSON.stringify(body)));
      expect(got.ok, `${seedNote}: ${JSON.stringify(body)}`).toBe(true);
      expect(got.invitationId, seedNote).toBe(String(id));
      expect(got.status, seedNote).toBe('Status' in base ? canon : null);
      expect(got.notes, `${seedNote}: ${JSON.stringify(body)}`).toEqual([]);
      if (base.TotalScore != null) expect(got.value.TotalScore, seedNote).toBe(Number(base.TotalScore));
    }
  });
});
