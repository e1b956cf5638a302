// The HTML digest of `report export --html`: self-contained, and every value from the service
// shown as text — markup, quotes, ampersands, control and bidi characters included.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { renderDigest } from '../../src/commands/report/shared/digest-html.js';
import type { SummaryRow } from '../../src/commands/report/shared/export-rows.js';

const HOSTILE = `<script>alert("x")</script> O'Brien & "Co" \u202eevil\u202c \u001b[31m`;
const row = (over: Partial<SummaryRow>): SummaryRow => ({
  testInvitationId: 1,
  candidateName: 'Ann',
  candidateEmail: 'ann@example.com',
  testName: 'Java',
  status: 'Complete',
  candidatePoints: 90,
  totalTestPoints: 100,
  scorePercentage: 90,
  PerformanceCategory: 'Excellent',
  sections: [{ sectionId: 1, sectionName: 'Core', candidateScore: 45, sectionScore: 50 }],
  Skills: null,
  pdf: 'report-ann-1.pdf',
  ...over,
});
const META = {
  state: 'completed',
  from: '2026-01-01T00:00:00Z',
  to: '2026-02-01T00:00:00Z',
  generatedAt: '2026-02-01T00:00:00.000Z',
};

describe('renderDigest', () => {
  const html = renderDigest(
    [
      row({}),
      row({
        testInvitationId: 2,
        candidateName: HOSTILE,
        candidateEmail: `"><img src=x onerror=alert(1)>@x`,
        status: 'Test Left',
        PerformanceCategory: '<b>bold</b>',
        sections: [{ sectionId: 1, sectionName: '<i>Core</i>', candidateScore: 1, sectionScore: 50 }],
        pdf: '../../etc/passwd',
      }),
    ],
    META,
  );

  it('one script (ours), no markup from the service, no raw bidi or control characters', () => {
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>bold');
    expect(html).not.toContain('<i>Core');
    expect(html).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; O&#39;Brien &amp; &quot;Co&quot; \\u202eevil\\u202c \\x1b[31m',
    );
    expect(html).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u0000-\u0008\u001b]/);
    expect(html).toContain('<bdi>&quot;&gt;&lt;img src=x onerror=alert(1)&gt;@x</bdi>');
  });

  it('links a PDF only by a plain file name in the same directory', () => {
    expect(html).toContain('<a href="report-ann-1.pdf">PDF</a>');
    expect(html).not.toContain('passwd');
  });

  it('no address to fetch: CSP default-src none, style and script allowed by their hashes only', () => {
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).not.toMatch(/@import|url\(/);
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!.replace(/&#39;/g, "'");
    expect(csp).toMatch(/^default-src 'none';/);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const hash = (s: string) => createHash('sha256').update(s).digest('base64');
    expect(csp).toContain(`style-src 'sha256-${hash(style)}'`);
    expect(csp).toContain(`script-src 'sha256-${hash(script)}'`);
  });

  it('the table: one row per attempt, section columns, sortable numbers in data-v', () => {
    expect(html.match(/<tr>/g)).toHaveLength(3); // header + 2
    expect(html).toContain('<td class="num" data-v="90">90 / 100</td>');
    expect(html).toContain('class="status-left"');
    expect(html).toMatch(/<svg class="histogram"[^>]*>/);
    expect(html).toContain('@media print');
    expect(html).toContain('prefers-color-scheme: dark');
  });

  it('the window in words, the ISO time kept in datetime', () => {
    expect(html).toContain(
      '<time datetime="2026-01-01T00:00:00Z">2026-01-01 00:00 UTC</time> to <time ' +
        'datetime="2026-02-01T00:00:00Z">2026-02-01 00:00 UTC</time>',
    );
  });

  it("in the zone of the run that made it, named as on a terminal; the footer's time too", () => {
    const paris = renderDigest([row({})], { ...META, zone: 'Europe/Paris' });
    expect(paris).toContain('<time datetime="2026-01-01T00:00:00Z">2026-01-01 01:00 CET</time>');
    expect(paris).toContain('<time datetime="2026-02-01T00:00:00.000Z">2026-02-01 01:00 CET</time>');
  });

  it('an empty window says so instead of an empty table', () => {
    const empty = renderDigest([], META);
    expect(empty).toContain('No attempts in this window.');
    expect(empty).not.toContain('<table');
  });
});
