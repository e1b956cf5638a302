// A bulk journal belongs to the service its rows were done on (the API's URL and profile, or the
// sandbox of a config dir): a run on another service refuses it before sending anything, instead
// of skipping every row as "already invited" (a rehearsal on the sandbox lost the real run's
// invitations). A run on the same service resumes; a journal of an older assess (no target) too.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let a: TestSandbox;
let b: TestSandbox;
const work = tempDir('assess-journal-target-');
beforeAll(async () => {
  [a, b] = await Promise.all([startTestSandbox(), startTestSandbox()]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  work.cleanup();
});

const on = (s: TestSandbox, args: string[]) => runInProcess(['invite', '1001', ...args], { env: s.env, cwd: work.dir });
const serviceRequests = async (s: TestSandbox) => (await s.requests()).filter((r) => r.path.startsWith('/v3/'));
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('a bulk journal names the service it was written for', () => {
  it('a second sandbox refuses the first one’s journal (exit 2, nothing sent); the first resumes; --journal NEW runs', async () => {
    const csv = join(work.dir, 'two.csv');
    writeFileSync(csv, 'email,name\njt1@example.com,Jay One\njt2@example.com,Jay Two\n');
    const first = await on(a, ['--from-csv', csv]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/: 2 invited in /);
    const journal = `${csv}.journal.ndjson`;
    expect(lines(journal)[0]).toEqual({ target: a.sb.baseUrl, profile: 'default' });
    const before = readFileSync(journal, 'utf8');

    const other = await on(b, ['--from-csv', csv]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(
      `the journal ${journal} was written for ${a.sb.baseUrl} (profile default), not ${b.sb.baseUrl} (profile default)`,
    );
    expect(other.stderr).toMatch(/--journal NEW\.ndjson\), or delete /);
    expect(await serviceRequests(b)).toEqual([]);
    expect(readFileSync(journal, 'utf8')).toBe(before);
    const dry = await on(b, ['--from-csv', csv, '--dry-run']); // connects to nothing: names the journal's service
    expect(dry.stderr).toContain(`2 already invited on ${a.sb.baseUrl} (profile default) (journal ${journal})`);

    await a.control('DELETE', '/requests');
    const again = await on(a, ['--from-csv', csv]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/: 2 already invited \(earlier run\), nothing to do\./);
    expect(await serviceRequests(a)).toEqual([]);

    const own = await on(b, ['--from-csv', csv, '--journal', join(work.dir, 'b.journal.ndjson')]);
    expect(own.code, own.stderr).toBe(0);
    expect(own.stderr).toMatch(/: 2 invited in /);
  });

  it('a rehearsal on --sandbox does not count on the service (the embedded sandbox is one target whatever its port)', async () => {
    const cfg = tempDir('assess-journal-target-cfg-');
    try {
      const csv = join(work.dir, 'rehearsal.csv');
      writeFileSync(csv, 'email,name\nsb1@example.com,Es Bee\n');
      const sandbox = () =>
        runInProcess(['--sandbox', 'invite', '1001', '--from-csv', csv], { configDir: cfg.dir, cwd: work.dir });
      const rehearsal = await sandbox();
      expect(rehearsal.code, rehearsal.stderr).toBe(0);
      const state = join(cfg.dir, 'sandbox', 'state.db');
      expect(lines(`${csv}.journal.ndjson`)[0]).toEqual({ target: `sandbox:${state}` });
      // a second embedded sandbox (another port) is the same one: it resumes
      const twice = await sandbox();
      expect(twice.code, twice.stderr).toBe(0);
      expect(twice.stderr).toMatch(/: 1 already invited \(earlier run\), nothing to do/);
      const before = (await serviceRequests(a)).length;
      const real = await runInProcess(['invite', '1001', '--from-csv', csv], {
        configDir: cfg.dir,
        env: a.env,
        cwd: work.dir,
      });
      expect(real.code).toBe(2);
      expect(real.stderr).toContain(`was written for sandbox:${state}, not ${a.sb.baseUrl} (profile default)`);
      expect((await serviceRequests(a)).length).toBe(before);
    } finally {
      cfg.cleanup();
    }
  });

  it('a journal of an older assess (no target) resumes with a warning, and names its service from the next line on', async () => {
    const csv = join(work.dir, 'older.csv');
    writeFileSync(csv, 'email,name\nold1@example.com,Old One\nold2@example.com,Old Two\n');
    const journal = `${csv}.journal.ndjson`;
    writeFileSync(
      journal,
      `${JSON.stringify({ k: '1001|default|old1@example.com', line: 2, outcome: 'invited', testInvitationId: 1, status: 'Pending' })}\n`,
    );
    const r = await on(a, ['--from-csv', csv]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/: 1 invited, 1 already invited \(earlier run\)/);
    expect(r.stderr).toContain(
      `warning: ${journal} (from an older assess) does not name the service it was written for; resuming it on ${a.sb.baseUrl}`,
    );
    expect(lines(journal).map((l) => l.k ?? l.target)).toEqual([
      '1001|default|old1@example.com',
      a.sb.baseUrl,
      '1001|default|old2@example.com',
    ]);
    const sentToB = (await serviceRequests(b)).length;
    const other = await on(b, ['--from-csv', csv]);
    expect(other.code).toBe(2);
    expect((await serviceRequests(b)).length).toBe(sentToB);
  });
});
