// --state FILE (SQLite): a restart resumes; a 2xx means committed (another connection sees it);
// a file that cannot be the state is refused at once, naming it, the cause and the fix, and is
// left as it is; without a file nothing touches the disk.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { readState } from '../helpers/sandbox-state.js';
import { harness } from './helpers.js';

let dir: string;
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'assess-sandbox-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Why startSandbox refused the file (its message and hint), or null when it started. */
async function refusal(stateFile: string, env?: Record<string, string>): Promise<string | null> {
  return startSandbox({ port: 0, stateFile, env }).then(
    async (sb) => (await sb.close(), null),
    (e: Error & { hint?: string }) => `${e.message} | ${e.hint ?? ''}`,
  );
}

/** A state file with a few invitations, closed (the WAL folded back into it). */
async function madeState(name: string): Promise<string> {
  const file = join(dir, name);
  const h = await harness({ stateFile: file });
  await h.inviteA(1001, `${name}@x.test`);
  await h.close();
  return file;
}

describe('persistence across a restart', () => {
  it('invitations, links, settings, moves and the clock survive close + start', async () => {
    const file = join(dir, 'state.db');
    const h1 = await harness({ stateFile: file });
    const id = await h1.inviteA(1001, 'persist@x.test');
    await h1.move(id, 'complete', { score: 64 });
    const link = await h1.api('POST', '/v3/tests/1001/testlinks', {
      testLinkName: 'Persisted',
      invitationType: 'open',
      invitationSchedule: {
        scheduleType: 'validityindays',
        scheduleDetails: { invitationValidityInDays: 2, timeZoneId: 1 },
      },
    });
    await h1.control('POST', '/clock', { advance: '2d' });
    const report1 = await h1.api('GET', `/v3/reports/${id}?reportType=3`);
    const clock1 = (await h1.control('GET', '/clock')).body.offsetMs;
    await h1.close();

    const h2 = await harness({ stateFile: file });
    try {
      const report2 = await h2.api('GET', `/v3/reports/${id}?reportType=3`);
      expect(report2.status).toBe(200);
      const strip = (r: any) => ({ ...r, pdfReportUrl: undefined });
      expect(strip(report2.body)).toEqual(strip(report1.body));
      expect(report2.body.scorePercentage).toBe(64);
      const links = (await h2.api('GET', '/v3/tests/1001/testlinks')).body.testLinks;
      expect(links.map((l: any) => l.testLinkId)).toContain(link.body.testLinkId);
      // the offset is kept to the millisecond (while the clock runs, offsetMs is stored, not recomputed)
      expect(Math.abs((await h2.control('GET', '/clock')).body.offsetMs - clock1)).toBeLessThanOrEqual(1);
      // ids keep counting from where they were
      const next = await h2.inviteA(1001, 'persist2@x.test');
      expect(next).toBeGreaterThan(id);
      // the request log carries over, without keys
      const requests = (await h2.control('GET', '/requests')).body.requests;
      expect(requests.some((r: any) => r.path === `/v3/reports/${id}?reportType=3`)).toBe(true);
    } finally {
      await h2.close();
    }
    expect(await readFile(file, 'latin1')).not.toContain('sk_sandbox_');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('a 2xx on a change means it committed: another connection sees it at once', async () => {
    const file = join(dir, 'durable.db');
    const h = await harness({ stateFile: file });
    try {
      const id = await h.inviteA(1003, 'durable@x.test');
      expect(readState(file).invitations.some((i) => i.testInvitationId === id)).toBe(true);
    } finally {
      await h.close();
    }
  });

  it('reset returns to the seed and is kept', async () => {
    const file = join(dir, 'reset.db');
    const h = await harness({ stateFile: file });
    const id = await h.inviteA(1001, 'gone@x.test');
    await h.control('POST', '/reset');
    expect((await h.control('GET', `/invitations/${id}`)).status).toBe(404);
    await h.close();
    expect(readState(file).invitations.some((i) => i.testInvitationId === id)).toBe(false);
  });

  it('an id counter set back by hand never overwrites an attempt: the invite fails, the attempt stays', async () => {
    const file = await madeState('behind.db');
    const raw = new DatabaseSync(file);
    raw.exec('UPDATE meta SET next_invitation = 900001');
    raw.close();
    const h = await harness({ stateFile: file });
    try {
      const r = await h.api('POST', '/v3/tests/1001/invite', { email: 'clash@x.test', name: 'Clash' });
      expect(r.status).toBe(500);
      expect(JSON.stringify(r.body)).toMatch(/UNIQUE constraint failed: invitations\.invitation_id/);
      expect((await h.control('GET', '/invitations/900001')).body).toMatchObject({ email: 'alice@example.com' });
    } finally {
      await h.close();
    }
  });
});

describe('a file that cannot be the state: refused at once, left as it is', () => {
  it("an earlier assess's state (JSON) is named, not read and not touched", async () => {
    const file = join(dir, 'old.json');
    const text = '{"format": "assess-sandbox-state", "version": 1, "invitations": []}';
    writeFileSync(file, text);
    expect(await refusal(file)).toMatch(
      `cannot use the sandbox state ${file}: it is the state file of an earlier assess (JSON), which this one does ` +
        `not read | give --state a new file`,
    );
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it.each([
    [
      'not a database',
      async () => writeFileSync(join(dir, 'garbage.db'), 'garbage\n'.repeat(200)),
      'garbage.db',
      /file is not a database \| it is no assess store/,
    ],
    [
      'truncated',
      async () => truncateSync(await madeState('cut.db'), 20_000),
      'cut.db',
      /database disk image is malformed \| .*move the file away/,
    ],
  ])('%s', async (_label, make, name, expected) => {
    await make();
    const file = join(dir, name);
    const before = readFileSync(file);
    expect(await refusal(file)).toMatch(expected);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it("another program's SQLite database, another assess store, a newer assess's state", async () => {
    const foreign = join(dir, 'foreign.db');
    const raw = new DatabaseSync(foreign);
    raw.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
    raw.close();
    expect(await refusal(foreign)).toMatch(
      `${foreign}: it is a SQLite database of another program | choose another file`,
    );

    const { Store } = await import('../../src/store/db.js');
    const profile = join(dir, 'profile.db');
    Store.open(profile, [{ name: 'inbox', migrations: ['CREATE TABLE inbox_x (id INTEGER PRIMARY KEY) STRICT'] }], {
      what: 'the callbacks inbox',
    }).close();
    expect(await refusal(profile)).toMatch(`${profile}: it is another assess store (it holds inbox)`);

    const newer = await madeState('newer.db');
    const db = new DatabaseSync(newer);
    db.exec("UPDATE assess_schema SET version = 99 WHERE part = 'sandbox'");
    db.close();
    expect(await refusal(newer)).toMatch(
      `${newer}: a newer assess made it (sandbox schema 99, this one knows 1) | upgrade assess`,
    );
  });

  it('a FIFO, a directory: refused without opening them (a FIFO would block for ever)', async () => {
    const fifo = join(dir, 'fifo.db');
    execFileSync('mkfifo', [fifo]);
    expect(await refusal(fifo)).toMatch(`${fifo}: not a regular file`);
    const sub = join(dir, 'a-directory');
    mkdirSync(sub);
    expect(await refusal(sub)).toMatch(`${sub}: not a regular file`);
    const wal = await madeState('wal-fifo.db');
    execFileSync('mkfifo', [`${wal}-wal`]);
    expect(await refusal(wal)).toMatch(`${wal}-wal: not a regular file`);
  });

  it('held by another writer past the busy timeout: refused, naming the timeout', async () => {
    const file = await madeState('busy.db');
    const holder = new DatabaseSync(file);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const why = await refusal(file, { ASSESS_BUSY_TIMEOUT: '0.2' });
      expect(why).toContain(`${file}: it is busy: another assess process held it longer than the busy timeout`);
      expect(why).toContain('raise ASSESS_BUSY_TIMEOUT');
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(await refusal(file)).toBeNull(); // let go: usable again
  });
});

describe('without a state file', () => {
  it('state lives in memory: a new sandbox starts from the seed', async () => {
    const h1 = await harness();
    const id = await h1.inviteA(1001, 'mem@x.test');
    await h1.close();
    const h2 = await harness();
    try {
      expect((await h2.control('GET', `/invitations/${id}`)).status).toBe(404);
    } finally {
      await h2.close();
    }
  });
});
