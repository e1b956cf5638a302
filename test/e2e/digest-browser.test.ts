// The HTML digest as a person sees it (expressions naming DOM globals are strings: the project
// has no DOM types): a seeded sandbox, the built binary's `report export --pdf
// --html`, and index.html opened from disk in headless Chromium (the system's browser, driven by
// playwright-core, which downloads nothing). Skips, saying why, only when no browser is installed
// (`apt-get install -y chromium`; CI installs it in .ci/run).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];
const browserPath = [process.env.ASSESS_TEST_CHROMIUM, ...CANDIDATES].find((p): p is string => !!p && existsSync(p));
if (!browserPath)
  console.warn(
    `digest-browser.test.ts: SKIPPED — no Chromium found (${CANDIDATES.join(', ')}); install it with: apt-get ` +
      `install -y chromium poppler-utils`,
  );

// A name that would run script if it were markup, with quotes, an ampersand and a bidi override.
const HOSTILE = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> O'Hara & "Sons" \u202eevil`;
const COHORT: Array<[name: string, email: string, score: number]> = [
  ['Zed Zimmer', 'zed@example.com', 55],
  [HOSTILE, 'hostile@example.com', 90],
  ['amy Adams', 'amy@example.com', 72],
  ['Bob Brown', 'bob.b@example.com', 30],
];

describe.skipIf(!browserPath)('the HTML digest in headless Chromium', () => {
  let s: TestSandbox;
  let browser: Browser;
  let page: Page;
  const work = tempDir('assess-digest-');
  const out = join(work.dir, 'digest');
  const offline: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    s = await startTestSandbox();
    for (const [name, email, score] of COHORT) {
      const r = await s.service<{ result: { testInvitationId: number } }>('/v3/tests/1001/invite', { email, name });
      const id = r.result?.testInvitationId ?? (r as unknown as { testInvitationId: number }).testInvitationId;
      await s.control('POST', `/invitations/${id}/simulate`, { to: 'complete', score });
    }
    // the sandbox stamps finish times with milliseconds; `--to now` is cut to the second
    const r = await runAssess(['report', 'export', '--from', '1d', '--to', '+1h', '--out', out, '--pdf', '--html'], {
      env: s.env,
      configDir: work.dir,
    });
    expect(r.code, r.stderr).toBe(0);
    browser = await chromium.launch({ executablePath: browserPath, headless: true, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    // Anything but the page itself would be a request leaving it: refused and recorded.
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url === pathToFileURL(join(out, 'index.html')).href) return route.continue();
      offline.push(url);
      return route.abort();
    });
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(pathToFileURL(join(out, 'index.html')).href);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
    work.cleanup();
  });

  const column = (n: number) =>
    page.$$eval(`#candidates tbody tr td:nth-child(${n})`, (cells) => cells.map((c) => c.textContent ?? ''));
  const header = (label: string) => page.locator('#candidates thead th button', { hasText: new RegExp(`^${label}$`) });

  it('shows one row per exported attempt, the stats cards and the histogram', async () => {
    expect(await page.locator('#candidates tbody tr').count()).toBe(COHORT.length);
    expect(await page.locator('svg.histogram rect.bar').count()).toBe(10);
    expect(await page.locator('.cards dd').first().textContent()).toBe(String(COHORT.length));
    expect(await page.title()).toBe('Assessment results: Java Backend Developer');
  });

  it('the hostile name is text, not markup: no script ran, no image, no request left the page', async () => {
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(1);
    const names = await column(1);
    expect(names).toContain(
      `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> O'Hara & "Sons" \\u202eevil`,
    );
    expect(offline).toEqual([]);
    expect(problems).toEqual([]); // a CSP refusal of our own style or script would show here
  });

  it('sorts by a header click, numbers as numbers, and the other way on a second click', async () => {
    await header('%').click();
    expect(await column(5)).toEqual(['30', '55', '72', '90']);
    expect(await page.locator('#candidates thead th[aria-sort="ascending"]').textContent()).toBe('%');
    await header('%').click();
    expect(await column(5)).toEqual(['90', '72', '55', '30']);
    await header('Name').click();
    expect((await column(1)).map((n) => n.slice(0, 3))).toEqual(['<im', 'amy', 'Bob', 'Zed']);
  });

  it('links each candidate to a PDF that was exported beside it', async () => {
    const hrefs = await page.$$eval('#candidates a', (links) => links.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs).toHaveLength(COHORT.length);
    for (const href of hrefs) {
      const file = join(out, decodeURIComponent(href));
      expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
    }
  });

  it('follows the colour scheme and the print medium', async () => {
    const bg = () => page.evaluate('getComputedStyle(document.body).backgroundColor');
    await page.emulateMedia({ colorScheme: 'light' });
    const light = await bg();
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await bg()).not.toBe(light);
    await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
    expect(await bg()).toBe('rgb(255, 255, 255)');
    expect(await page.evaluate("getComputedStyle(document.querySelector('thead th')).position")).toBe('static');
    await page.emulateMedia({ media: 'screen', colorScheme: 'light' });
  });

  it('fits a 390 px phone and a 1280 px screen, also with a long unbroken name and e-mail', async () => {
    const long = `Maximiliana${'Wolfeschlegelsteinhausenberger'.repeat(6)}`;
    const email = `${'x'.repeat(60)}@${'sub'.repeat(20)}.example.com`;
    const made = await s.service<{ result?: { testInvitationId: number }; testInvitationId?: number }>(
      '/v3/tests/1001/invite',
      { email, name: long },
    );
    const id = made.result?.testInvitationId ?? made.testInvitationId;
    await s.control('POST', `/invitations/${id}/simulate`, { to: 'complete', score: 64 });
    const wide = join(work.dir, 'wide');
    const r = await runAssess(['report', 'export', '--from', '1d', '--to', '+1h', '--out', wide, '--html'], {
      env: s.env,
      configDir: work.dir,
    });
    expect(r.code, r.stderr).toBe(0);
    for (const width of [390, 1280]) {
      const p = await browser.newPage({ viewport: { width, height: 800 } });
      try {
        await p.goto(pathToFileURL(join(wide, 'index.html')).href);
        expect(await p.locator('#candidates tbody tr').count()).toBe(COHORT.length + 1);
        // nothing sticks out of the page: no sideways scrolling of the document
        const scroll = (await p.evaluate(
          '[document.documentElement.scrollWidth, document.body.scrollWidth]',
        )) as number[];
        expect({ width, scroll }).toEqual({ width, scroll: scroll.map((w) => Math.min(w, width)) });
        // the long name wraps inside its cell (it is not cut, and its cell is narrower than the page)
        const cell = p.locator('#candidates td', { hasText: long.slice(0, 40) });
        expect(await cell.textContent()).toBe(long);
        const box = (await cell.boundingBox())!;
        expect(box.width).toBeLessThan(width);
        expect(box.height).toBeGreaterThan(40); // more than one line
      } finally {
        await p.close();
      }
    }
  });

  it('writes a screenshot of the page under the test directory', async () => {
    const shot = join(work.dir, 'digest.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(readFileSync(shot).subarray(1, 4).toString()).toBe('PNG');
    expect(statSync(shot).size).toBeGreaterThan(10_000);
  });
});
