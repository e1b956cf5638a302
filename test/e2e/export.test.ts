// `assess report export` against a sandbox: the summary equals the reports, PDFs are PDFs,
// an interrupted export (SIGINT, kill -9) re-runs into no partial files and no duplicates,
// --since-last-run exports only what is new (into a summary that keeps what earlier runs exported).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { doneItems, ndjson } from '../helpers/bulk.js';
import { gateProxy } from '../helpers/gate-proxy.js';
import { storeOf } from '../helpers/store.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { FIRST_CTRL_C, spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

let s: TestSandbox;
const work = tempDir('assess-export-');
// one config dir: the journals of the exports are in its store
const cfg = join(work.dir, 'config');
const store = storeOf(cfg);
afterAll(async () => {
  await s?.close();
  work.cleanup();
});

/** Invites and completes `n` candidates with varied scores; returns their invitation ids. */
async function completed(n: number, tag: string): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const inv = await s.service<{ testInvitationId: number }>('/v3/tests/1001/invite', {
      email: `${tag}${i}@export.example`,
      name: `${tag} Person ${i}`,
    });
    await s.control('POST', `/invitations/${inv.testInvitationId}/simulate`, { to: 'complete', score: (i * 37) % 100 });
    ids.push(inv.testInvitationId);
  }
  return ids;
}

const report = async (id: number) =>
  (await (
    await fetch(`${s.sb.baseUrl}/v3/reports/${id}?reportType=3`, { headers: { 'X-API-KEY': s.sb.keys[0]! } })
  ).json()) as Record<string, unknown> & {
    sections: Array<{ sectionName: string; candidateScore: number }>;
  };
const exportArgs = (out: string, extra: string[] = []) => [
  'report',
  'export',
  '--state',
  'completed',
  '--from',
  '1d',
  '--to',
  '+1h',
  '--out',
  out,
  ...extra,
];
const parts = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.part'));
const pdfs = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.pdf'));

function parseCsv(text: string): Array<Record<string, string>> {
  // a byte order mark for spreadsheets; csv readers of scripts drop it as this does
  expect(text.startsWith('\uFEFF')).toBe(true);
  const [head, ...lines] = text.slice(1).trim().split('\r\n');
  const cols = head!.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i]!, v])));
}

describe('assess report export', () => {
  let ids: number[] = [];
  beforeAll(async () => {
    s = await startTestSandbox({ latencyMs: 10 });
    ids = await completed(12, 'first');
  });

  it('writes a summary whose numbers equal the reports, and one valid PDF per attempt', async () => {
    const out = join(work.dir, 'full');
    const r = await runAssess(exportArgs(out, ['--pdf', '--type', 'both']), {
      env: s.env,
      configDir: cfg,
      timeoutMs: 90_000,
    });
    expect(r.stderr).toMatch(/: 12 exported in /);
    expect(r.code).toBe(0);
    const rows = parseCsv(readFileSync(join(out, 'summary.csv'), 'utf8'));
    const sections = parseCsv(readFileSync(join(out, 'sections.csv'), 'utf8'));
    const skills = parseCsv(readFileSync(join(out, 'skills.csv'), 'utf8'));
    expect(rows.map((row) => Number(row.testInvitationId)).sort()).toEqual([...ids].sort());
    for (const row of rows) {
      const rep = await report(Number(row.testInvitationId));
      expect(Number(row.candidatePoints)).toBe(rep.candidatePoints);
      expect(Number(row.totalTestPoints)).toBe(rep.totalTestPoints);
      expect(Number(row.scorePercentage)).toBe(rep.scorePercentage);
      expect(row.PerformanceCategory).toBe(rep.PerformanceCategory);
      expect(row.candidateEmail).toBe(rep.candidateEmail);
      // long format: one row per attempt and section (and skill), fixed columns
      const own = sections.filter((x) => x.testInvitationId === row.testInvitationId);
      expect(own.map((x) => [x.sectionName, Number(x.candidateScore)])).toEqual(
        rep.sections.map((sec) => [sec.sectionName, sec.candidateScore]),
      );
      expect(skills.filter((x) => x.testInvitationId === row.testInvitationId).length).toBeGreaterThan(0);
      expect(readFileSync(join(out, row.pdf!)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
    expect(pdfs(out)).toHaveLength(12);
    expect(parts(out)).toEqual([]);
  });

  it('--format json nests sections; --since-last-run exports only the attempts completed since, into a summary that accumulates', async () => {
    const out = join(work.dir, 'nightly');
    const first = await runAssess(exportArgs(out, ['--format', 'json']), { env: s.env, configDir: cfg });
    expect(first.code).toBe(0);
    const all = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Array<{
      testInvitationId: number;
      sections: unknown[];
    }>;
    expect(all).toHaveLength(12);
    expect(all.every((r) => r.sections.length > 0)).toBe(true);
    const fresh = await completed(2, 'later');
    const next = await runAssess(
      ['report', 'export', '--since-last-run', '--from', '1d', '--to', '+1h', '--out', out, '--format', 'json'],
      { env: s.env, configDir: cfg },
    );
    expect(next.code).toBe(0);
    expect(next.stderr).toMatch(/: 2 exported, 12 already exported \(earlier run\) in /);
    // the summary holds every attempt exported so far, earlier runs' first
    const grown = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Array<{ testInvitationId: number }>;
    expect(
      grown
        .slice(0, 12)
        .map((r) => r.testInvitationId)
        .sort(),
    ).toEqual(all.map((r) => r.testInvitationId).sort());
    expect(grown.slice(12).map((r) => r.testInvitationId)).toEqual(fresh);
    const newOnes = ndjson<{ testInvitationId: number; outcome: string }>(join(out, 'export.results.ndjson')).filter(
      (l) => l.outcome === 'exported',
    );
    expect(newOnes.map((l) => l.testInvitationId).sort()).toEqual([...fresh].sort());
    // a run with nothing new leaves the summary whole (it used to be rewritten empty)
    const quiet = await runAssess(
      ['report', 'export', '--since-last-run', '--to', '+1h', '--out', out, '--format', 'json'],
      { env: s.env, configDir: cfg },
    );
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toMatch(/: nothing to do\. Results/);
    const kept = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Array<{ testInvitationId: number }>;
    expect(kept).toEqual(grown);
    ids.push(...fresh);
  });

  it('interrupted by Ctrl-C: exit 130, no summary, no partial file; the re-run completes with no duplicates', async () => {
    const out = join(work.dir, 'interrupted');
    // past the first answers every answer is held: Ctrl-C lands with an item in flight and items
    // left, however fast this machine is; once the run has taken it, the held answer goes out
    const gate = await gateProxy(s.sb.baseUrl, 8);
    const env = { ...s.env, ASSESS_BASE_URL: gate.url };
    const p = spawnAssess(exportArgs(out, ['--pdf', '--concurrency', '1']), { env, configDir: cfg });
    await waitFor(() => gate.held() > 0 || p.child.exitCode !== null, { timeoutMs: 300_000, what: 'an answer held' });
    p.child.kill('SIGINT');
    await waitFor(() => p.stderr().includes(FIRST_CTRL_C) || p.child.exitCode !== null, { what: 'the Ctrl-C taken' });
    gate.release();
    const r = await p.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/Interrupted: /);
    const journaled = doneItems(store, 'export', out).length;
    // what is left, and that a re-run resumes
    const left = Number(
      /interrupted with (\d+) items? not exported yet; .*run the same command again to resume/.exec(r.stderr)?.[1],
    );
    expect(left).toBe(ids.length - journaled);
    expect(journaled).toBeLessThan(ids.length);
    expect(readdirSync(out)).not.toContain('summary.csv');
    expect(parts(out)).toEqual([]);
    expect(ndjson(join(out, 'export.results.ndjson')).length).toBe(journaled);

    const again = await runAssess(exportArgs(out, ['--pdf']), { env, configDir: cfg, timeoutMs: 90_000 });
    await gate.close();
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(
      new RegExp(`: ${ids.length - journaled} exported, ${journaled} already exported \\(earlier run\\)`),
    );
    const rows = parseCsv(readFileSync(join(out, 'summary.csv'), 'utf8'));
    expect(rows).toHaveLength(ids.length);
    expect(new Set(rows.map((row) => row.testInvitationId)).size).toBe(ids.length);
    expect(pdfs(out)).toHaveLength(ids.length);
    expect(parts(out)).toEqual([]);
  });

  it("killed with SIGKILL: the re-run removes the dead run's temp files and downloads nothing twice", async () => {
    const out = join(work.dir, 'killed');
    const p = spawnAssess(exportArgs(out, ['--pdf', '--concurrency', '2']), { env: s.env, configDir: cfg });
    await waitFor(() => doneItems(store, 'export', out).length >= 2, {
      what: 'journal rows',
    });
    p.child.kill('SIGKILL');
    await p.done;
    const kept = new Map(pdfs(out).map((f) => [f, readFileSync(join(out, f)).length]));
    const again = await runAssess(exportArgs(out, ['--pdf']), { env: s.env, configDir: cfg, timeoutMs: 90_000 });
    expect(again.code).toBe(0);
    expect(parts(out)).toEqual([]);
    expect(pdfs(out)).toHaveLength(ids.length);
    for (const f of pdfs(out)) expect(readFileSync(join(out, f)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const results = ndjson<{ pdfFile?: string; outcome: string }>(join(out, 'export.results.ndjson'));
    // PDFs that were in place before the re-run are kept as they are (reported 'existing' or skipped).
    expect(results.filter((l) => l.pdfFile === 'saved')).toHaveLength(ids.length - kept.size);
    expect(parseCsv(readFileSync(join(out, 'summary.csv'), 'utf8'))).toHaveLength(ids.length);
  });

  it('rejects a bad window before sending anything', async () => {
    const r = await runAssess(['report', 'export', '--from', '1d', '--to', '2d', '--out', join(work.dir, 'x')], {
      env: s.env,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--to: must be after --from/);
  });
});
