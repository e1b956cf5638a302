// Crash tests: bulk invite and report export are killed with SIGKILL at a point derived from a
// seed (after N journal lines, then a few more milliseconds), then run again. Afterwards:
// nothing lost, nothing duplicated (sandbox state and files), no temp file left and no partial
// file under a final name, every final file parses. The sandbox adds latency so the kills land
// mid-run; whether a given kill lands before or after the end is not asserted.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/sandbox/fault-spec.js';
import { runAssess, tempDir } from '../helpers/cli.js';
import { csvOf, journalItems } from '../helpers/bulk.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

const INVITE_SEEDS = [1, 2, 3, 4, 5, 6];
const EXPORT_SEEDS = [11, 12, 13, 14, 15];
const ROWS = 200;
const REPORTS = 40;

let s: TestSandbox;
const work = tempDir('assess-crash-');
beforeAll(async () => {
  s = await startTestSandbox();
  await s.control('POST', '/faults', { spec: 'latency=2ms..10ms,seed=1' });
});
afterAll(async () => {
  await s?.close();
  work.cleanup();
});

/** Where to kill, from the seed: after `lines` journal lines (0 = right after the start), plus `extraMs`. */
function killPoint(seed: number, maxLines: number) {
  const random = seededRandom(seed);
  // squared: early kills (during start-up, validation, listing) come up too, not only mid-run
  return {
    lines: Math.floor(random() ** 2 * maxLines),
    extraMs: Math.floor(random() * 40),
    concurrency: 1 + Math.floor(random() * 6),
  };
}

async function killAt(args: string[], journal: string, at: ReturnType<typeof killPoint>, cwd: string) {
  const p = spawnAssess(args, { env: s.env, cwd });
  if (at.lines > 0)
    await waitFor(() => journalItems(journal).length >= at.lines || p.child.exitCode !== null, {
      timeoutMs: 60_000,
      what: 'journal lines',
    });
  await new Promise((r) => setTimeout(r, at.extraMs));
  p.child.kill('SIGKILL');
  return p.done;
}

/** Temp files (atomic writes, PDF downloads) left in a directory. */
const temps = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.part') || f.endsWith('.tmp'));
/** Every line of an NDJSON file parses (a torn last line would throw). */
const parseAll = (path: string) =>
  readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('bulk invite killed with SIGKILL, then re-run', () => {
  it.each(INVITE_SEEDS)('seed %i: every row invited exactly once, no partial files', async (seed) => {
    const dir = tempDir(`assess-crash-invite-${seed}-`);
    const domain = `crash${seed}.example`;
    const csv = join(dir.dir, 'rows.csv');
    writeFileSync(csv, csvOf(Array.from({ length: ROWS }, (_, i) => [`r${i}@${domain}`, `Row ${i}`])));
    const journal = `${csv}.journal.ndjson`;
    const results = `${csv}.results.ndjson`;
    const at = killPoint(seed, ROWS - 20);
    await killAt(['invite', '1001', '--csv', csv, '--concurrency', String(at.concurrency)], journal, at, dir.dir);

    const journaled = journalItems(journal).length; // a torn tail is cut by the re-run, not here
    const again = await runAssess(['invite', '1001', '--from-csv', csv, '--json'], {
      env: s.env,
      cwd: dir.dir,
      timeoutMs: 90_000,
    });
    expect(again.code).toBe(0);
    const tally = JSON.parse(again.stdout) as { done: number; skipped: number; failed: number };
    expect(tally.failed).toBe(0);
    expect(tally.done + tally.skipped).toBe(ROWS);
    expect(tally.skipped).toBeLessThanOrEqual(journaled);

    const invs = (
      await s.control<{ invitations: Array<{ email: string; testInvitationId: number }> }>('GET', '/invitations')
    ).invitations.filter((i) => i.email.endsWith(`@${domain}`));
    expect(invs).toHaveLength(ROWS);
    expect(new Set(invs.map((i) => i.email)).size).toBe(ROWS);
    const keys = parseAll(journal)
      .filter((l) => l.target === undefined)
      .map((l) => l.k);
    expect(new Set(keys).size).toBe(ROWS);
    expect(keys).toHaveLength(ROWS);
    const lines = parseAll(results);
    expect(lines).toHaveLength(ROWS);
    const ids = new Map(invs.map((i) => [i.email, i.testInvitationId]));
    expect(lines.filter((l) => ids.get((l.row as { email: string }).email) !== l.testInvitationId)).toEqual([]);
    expect(temps(dir.dir)).toEqual([]);
    dir.cleanup();
  });
});

describe('report export killed with SIGKILL, then re-run', () => {
  const ids: number[] = [];
  beforeAll(async () => {
    await s.control('POST', '/faults', { spec: 'off' });
    for (let i = 0; i < REPORTS; i++) {
      const inv = await s.service<{ testInvitationId: number }>('/v3/tests/1001/invite', {
        email: `p${i}@crash-export.example`,
        name: `Crash Person ${i}`,
      });
      await s.control('POST', `/invitations/${inv.testInvitationId}/simulate`, {
        to: 'complete',
        score: (i * 29) % 100,
      });
      ids.push(inv.testInvitationId);
    }
    await s.control('POST', '/faults', { spec: 'latency=2ms..10ms,seed=2' });
  });

  it.each(EXPORT_SEEDS)(
    'seed %i: every report and PDF exactly once, summary complete, no partial files',
    async (seed) => {
      const out = join(work.dir, `export-${seed}`);
      const args = ['report', 'export', '--from', '1d', '--to', '+1h', '--out', out, '--pdf', '--format', 'csv'];
      const at = killPoint(seed, REPORTS - 5);
      await killAt(
        [...args, '--concurrency', String(at.concurrency)],
        join(out, 'export.journal.ndjson'),
        at,
        work.dir,
      );

      const again = await runAssess(args, { env: s.env, cwd: work.dir, timeoutMs: 90_000 });
      expect(again.code).toBe(0);
      expect(again.stderr).toMatch(/: (\d+ exported|\d+ already exported \(earlier run\))/);
      expect(again.stderr).not.toMatch(/\d+ failed/);
      const [head, ...rows] = readFileSync(join(out, 'summary.csv'), 'utf8').trim().split('\r\n');
      const idCol = head!.split(',').indexOf('testInvitationId');
      const summaryIds = rows.map((r) => Number(r.split(',')[idCol]));
      expect(new Set(summaryIds).size).toBe(summaryIds.length);
      expect(ids.filter((id) => !summaryIds.includes(id))).toEqual([]);
      const pdfs = readdirSync(out).filter((f) => f.endsWith('.pdf'));
      expect(pdfs).toHaveLength(summaryIds.length);
      for (const id of summaryIds) expect(pdfs.filter((f) => f.endsWith(`-${id}.pdf`))).toHaveLength(1);
      for (const f of pdfs) {
        const bytes = readFileSync(join(out, f));
        expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        expect(bytes.subarray(-8).toString('latin1')).toMatch(/%%EOF/);
      }
      expect(parseAll(join(out, 'export.results.ndjson'))).toHaveLength(summaryIds.length);
      expect(
        new Set(
          parseAll(join(out, 'export.journal.ndjson'))
            .filter((l) => l.k)
            .map((l) => l.k),
        ).size,
      ).toBe(summaryIds.length);
      expect(temps(out)).toEqual([]);
    },
  );
});
