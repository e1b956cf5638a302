// Report PDFs: deterministic renders, generated in the background when an attempt finishes,
// served from a cache keyed on the report's data (never stale, byte-identical to a fresh render).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulate } from '../../src/sandbox/invitations.js';
import { renderReportPdf } from '../../src/sandbox/pdf.js';
import { generatedAtOf, ReportPdfs } from '../../src/sandbox/report-pdfs.js';
import { buildReport } from '../../src/sandbox/scoring.js';
import { openState } from '../../src/sandbox/state-file.js';
import type { Store } from '../../src/sandbox/store.js';
import { waitFor } from '../helpers/wait.js';
import { harness, type Harness } from './helpers.js';

const freshPdf = (store: Store, id: number) => {
  const inv = store.invitation(id)!;
  return renderReportPdf(buildReport(store.test(inv.testId)!, inv, 3, 'http://x/pdf'), generatedAtOf(inv));
};

describe('renderReportPdf', () => {
  it('gives the same bytes for the same data, with CreationDate from generatedAt', async () => {
    const store = openState({});
    const inv = store.invitation(900001)!;
    const report = buildReport(store.test(inv.testId)!, inv, 3, '');
    const a = await renderReportPdf(report, '2030-01-02T03:04:05Z');
    const b = await renderReportPdf(structuredClone(report), '2030-01-02T03:04:05Z');
    expect(a.equals(b)).toBe(true);
    expect(a.toString('latin1')).toContain('(D:20300102030405Z)');
    const later = await renderReportPdf(report, '2030-01-02T03:04:06Z');
    expect(later.equals(a)).toBe(false);
  });
});

describe('ReportPdfs (in process)', () => {
  it('renders in the background after simulate has returned, then serves the cached bytes', async () => {
    const store = openState({});
    const pdfs = new ReportPdfs(store);
    store.onReportReady = (inv) => pdfs.schedule(inv);
    const inv = store.invitation(900004)!; // Pending
    expect(simulate(store, inv, 'complete', { percent: 77 })).toEqual({ ok: true });
    // simulate has returned; the render is only queued
    expect(pdfs.queued).toBe(1);
    expect(pdfs.renders).toBe(0);
    expect(pdfs.has(inv)).toBe(false);
    await pdfs.idle();
    expect(pdfs.renders).toBe(1);
    expect(pdfs.has(inv)).toBe(true);
    const served = await pdfs.pdfFor(inv);
    expect(pdfs.renders).toBe(1); // a cache hit
    expect(served.equals(await freshPdf(store, 900004))).toBe(true);
  });

  it('does not serve a PDF whose data has changed', async () => {
    const store = openState({});
    const pdfs = new ReportPdfs(store);
    const inv = store.invitation(900001)!;
    const before = await pdfs.pdfFor(inv);
    inv.name = 'Alice Renamed';
    store.changed({ invitation: inv });
    const after = await pdfs.pdfFor(inv);
    expect(pdfs.renders).toBe(2);
    expect(after.equals(before)).toBe(false);
    expect(after.equals(await freshPdf(store, 900001))).toBe(true);
  });

  it('is bounded by entries and by bytes', async () => {
    const store = openState({});
    const few = new ReportPdfs(store, { maxEntries: 2 });
    for (const id of [900001, 900002, 900003, 900008]) await few.pdfFor(store.invitation(id)!);
    expect(few.size.entries).toBe(2);
    expect(few.has(store.invitation(900001)!)).toBe(false);
    expect(few.has(store.invitation(900008)!)).toBe(true);
    const one = (await few.pdfFor(store.invitation(900008)!)).length;
    const small = new ReportPdfs(store, { maxBytes: one * 4 });
    for (const id of [900001, 900002, 900003, 900008]) await small.pdfFor(store.invitation(id)!);
    expect(small.size.bytes).toBeLessThanOrEqual(one * 4);
    expect(small.size.entries).toBeLessThan(4);
  });
});

describe('report PDFs over HTTP', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(() => h.close());

  const getPdf = async (path: string, v2 = false) => {
    const res = await fetch(h.sb.baseUrl + path, { headers: { [v2 ? 'x-api-key' : 'X-API-KEY']: h.keyA } });
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };
  /** A fresh render of what the JSON report and control view say. */
  const expected = async (id: number) => {
    const report = (await h.api('GET', `/v3/reports/${id}?reportType=3`)).body;
    const view = (await h.control('GET', `/invitations/${id}`)).body;
    return renderReportPdf(report, view.finishedAt);
  };

  it('a repeated request returns identical bytes, equal to a fresh render (v3 and v2)', async () => {
    const id = await h.inviteA(1001, 'pdf-cache@example.com');
    await h.move(id, 'complete', { score: 91 });
    const first = await getPdf(`/v3/reports/${id}/pdf`);
    const second = await getPdf(`/v3/reports/${id}/pdf`);
    expect(second.equals(first)).toBe(true);
    expect(first.equals(await expected(id))).toBe(true);
    expect((await getPdf(`/v2/org/report/${id}/pdf`, true)).equals(first)).toBe(true);
  });

  it("a finished attempt's PDF is rendered in the background and the request is served from it", async () => {
    const id = await h.inviteA(1001, 'pdf-background@example.com');
    await h.move(id, 'terminate', { score: 55 });
    const idle = await waitFor(
      async () => {
        const q = (await h.control('GET', '/reports')).body;
        return !q.pdfQueue && !q.pdfRendering && q;
      },
      { what: 'the background PDF render' },
    );
    const pdf = await getPdf(`/v3/reports/${id}/pdf`);
    expect((await h.control('GET', '/reports')).body.pdfRenders).toBe(idle.pdfRenders); // a cache hit
    expect(pdf.equals(await expected(id))).toBe(true);
  });

  it('after a reset, the same invitation id completed with another score is not served stale', async () => {
    const email = 'pdf-reset@example.com';
    const id = await h.inviteA(1001, email);
    await h.move(id, 'complete', { score: 95 });
    const before = await getPdf(`/v3/reports/${id}/pdf`);
    expect((await h.control('POST', '/reset')).status).toBe(200);
    const again = await h.inviteA(1001, email);
    await h.move(again, 'complete', { score: 20 });
    const after = await getPdf(`/v3/reports/${again}/pdf`);
    expect(after.equals(await expected(again))).toBe(true);
    if (again === id) expect(after.equals(before)).toBe(false);
  });

  it('a reattempt completed again gets its own report; the first attempt keeps its own', async () => {
    const id = await h.inviteA(1001, 'pdf-reattempt@example.com');
    await h.move(id, 'leave', { score: 30 });
    const first = await getPdf(`/v3/reports/${id}/pdf`);
    const now = Date.now();
    const utc = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const r = await h.api('POST', `/v3/invitations/${id}/reattempt`, {
      StartDateTime: utc(now - 3_600_000),
      EndDateTime: utc(now + 86_400_000),
      TimeZoneId: 7,
    });
    expect(r.status).toBe(200);
    const next = r.body.testInvitationId as number;
    await h.move(next, 'complete', { score: 88 });
    const second = await getPdf(`/v3/reports/${next}/pdf`);
    expect(second.equals(await expected(next))).toBe(true);
    expect(second.equals(first)).toBe(false);
    expect((await getPdf(`/v3/reports/${id}/pdf`)).equals(first)).toBe(true);
  });
});
