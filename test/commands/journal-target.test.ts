// A bulk run's journal belongs to the service its rows were done on (the API's URL and profile,
// or the sandbox of a config dir): a run on another service has a journal of its own, so a
// rehearsal on the sandbox never makes the real run skip its rows. A run on the same service
// resumes, whatever the sandbox's port. An NDJSON journal of an older assess is named, not read,
// and left as it is; given as --journal it is refused before anything is sent.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doneItems } from '../helpers/bulk.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { query, storeOf } from '../helpers/store.js';

let a: TestSandbox;
let b: TestSandbox;
const work = tempDir('assess-journal-target-');
const cfg = join(work.dir, 'config');
beforeAll(async () => {
  [a, b] = await Promise.all([startTestSandbox(), startTestSandbox()]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  work.cleanup();
});

const on = (s: TestSandbox | undefined, args: string[], configDir = cfg) =>
  runInProcess([...(s ? [] : ['--sandbox']), 'invite', '1001', ...args], {
    env: s?.env,
    cwd: work.dir,
    configDir,
  });
const serviceRequests = async (s: TestSandbox) => (await s.requests()).filter((r) => r.path.startsWith('/v3/'));

describe('a bulk journal belongs to the service it was written for', () => {
  it('another service has its own journal; the first resumes; the dry run reads the journal of its own service', async () => {
    const csv = join(work.dir, 'two.csv');
    writeFileSync(csv, 'email,name\njt1@example.com,Jay One\njt2@example.com,Jay Two\n');
    const first = await on(a, ['--from-csv', csv]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/: 2 invited in /);
    const runs = query<{ kind: string; name: string; target: string }>(
      storeOf(cfg),
      'SELECT kind, name, target FROM run',
    );
    expect(runs).toEqual([{ kind: 'invite', name: `1001 ${csv}`, target: `${a.sb.baseUrl} (profile default)` }]);

    const dryB = await on(b, ['--from-csv', csv, '--dry-run']);
    expect(dryB.stderr).toContain('0 already invited');
    const other = await on(b, ['--from-csv', csv]);
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).toMatch(/: 2 invited in /);
    // and the lists read first
    expect((await serviceRequests(b)).filter((r) => r.path.endsWith('/invite'))).toHaveLength(2);

    await a.control('DELETE', '/requests');
    const again = await on(a, ['--from-csv', csv]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/: 2 already invited \(earlier run\), nothing to do\./);
    expect(await serviceRequests(a)).toEqual([]);
    const dryA = await on(a, ['--from-csv', csv, '--dry-run']);
    expect(dryA.stderr).toContain(`2 already invited (journal in ${storeOf(cfg)}); 0 would be sent`);
  });

  it('a rehearsal on --sandbox does not count on the service (the embedded sandbox is one target whatever its port)', async () => {
    const csv = join(work.dir, 'rehearsal.csv');
    writeFileSync(csv, 'email,name\nsb1@example.com,Es Bee\n');
    const rehearsal = await on(undefined, ['--from-csv', csv]);
    expect(rehearsal.code, rehearsal.stderr).toBe(0);
    // a second embedded sandbox (another port) is the same one: it resumes
    const twice = await on(undefined, ['--from-csv', csv]);
    expect(twice.code, twice.stderr).toBe(0);
    expect(twice.stderr).toMatch(/: 1 already invited \(earlier run\), nothing to do/);
    const real = await on(a, ['--from-csv', csv]);
    expect(real.code, real.stderr).toBe(0);
    expect(real.stderr).toMatch(/: 1 invited in /);
    expect((await serviceRequests(a)).filter((r) => JSON.stringify(r.body).includes('sb1@'))).toHaveLength(1);
  });

  it('--journal FILE keeps the journal in a database of its own; the next run with it resumes', async () => {
    const csv = join(work.dir, 'own.csv');
    writeFileSync(csv, 'email,name\nown1@example.com,Own One\n');
    const file = join(work.dir, 'own.db');
    const r = await on(a, ['--from-csv', csv, '--journal', file], join(work.dir, 'config-1'));
    expect(r.code, r.stderr).toBe(0);
    expect(doneItems(file).map((i) => i.key)).toEqual(['1001|default|own1@example.com']);
    expect(r.stderr).toContain(`Results: ${join(work.dir, 'own.results.ndjson')}; journal: ${file}`);
    // another config dir (a CI job's fresh home): the journal travels with the file
    const again = await on(a, ['--from-csv', csv, '--journal', file], join(work.dir, 'config-2'));
    expect(again.stderr).toMatch(/: 1 already invited \(earlier run\), nothing to do/);
  });

  it('an older NDJSON journal is named and left as it is; as --journal it is refused, nothing sent', async () => {
    const csv = join(work.dir, 'older.csv');
    writeFileSync(csv, 'email,name\nold1@example.com,Old One\n');
    const old = `${csv}.journal.ndjson`;
    const text = `${JSON.stringify({ k: '1001|default|old1@example.com', outcome: 'invited', testInvitationId: 1 })}\n`;
    writeFileSync(old, text);
    const r = await on(a, ['--from-csv', csv]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`note: ${old} is the journal of an older assess; it is not read`);
    expect(r.stderr).toMatch(/: 1 invited in /);
    expect(readFileSync(old, 'utf8')).toBe(text);
    const before = (await serviceRequests(a)).length;
    const given = await on(a, ['--from-csv', csv, '--journal', old]);
    expect(given.code).toBe(2);
    expect(given.stderr).toContain(
      `--journal: ${old} is the journal of an older assess (NDJSON), which this one does not read`,
    );
    expect((await serviceRequests(a)).length).toBe(before);
    expect(readFileSync(old, 'utf8')).toBe(text);
  });
});

describe('report export and an older journal', () => {
  it('DIR/export.journal.ndjson is named, not read, and left as it is', async () => {
    const out = join(work.dir, 'old-export');
    mkdirSync(out);
    const old = join(out, 'export.journal.ndjson');
    writeFileSync(old, '{"k":"900001","type":"summary"}\n');
    const r = await runInProcess(['report', 'export', '--from', '30d', '--out', out], { env: a.env, configDir: cfg });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`note: ${old} is the journal of an older assess; it is not read`);
    expect(r.stderr).toMatch(/: [1-9]\d* exported in /);
    expect(readFileSync(old, 'utf8')).toBe('{"k":"900001","type":"summary"}\n');
  });
});
