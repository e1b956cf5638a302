// The inbox in the store: a notification is committed before the receiver answers 200,
// duplicates (same invitation and status) marked across restarts, bodies kept byte for byte,
// concurrent notifications committed together (one transaction), a batch that cannot be stored
// failing every request in it; and the receiver answering 503 when the inbox cannot store one.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { Inbox, notificationId } from '../../src/commands/callbacks/shared/inbox.js';
import { notifications } from '../../src/commands/callbacks/shared/inbox-read.js';
import { startReceiver, type Received } from '../../src/commands/callbacks/shared/receiver.js';

// temp dirs of this file, removed when it is done
const made: string[] = [];
const madeDir = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
};
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

const body = (id: number, status: string) => ({
  CandidateEmailId: 'ann@example.com',
  AttemptedOn: null,
  AttemptedOnUtc: null,
  TotalScore: 10,
  CandidateScore: 7,
  ReportPDFUrl: null,
  TestInvitationId: id,
  Status: status,
  PerformanceCategory: null,
});
const tmp = () => join(madeDir('assess-inbox-'), 'sub', 'store.db');

function add(w: Inbox, id: number, status: string, raw = Buffer.from(JSON.stringify(body(id, status)))) {
  return w.addNotification({
    raw,
    headers: { 'content-type': 'application/json', 'x-other': 'dropped' },
    at: new Date('2026-03-01T10:00:00Z'),
  });
}

const count = (path: string) => {
  const db = new DatabaseSync(path);
  try {
    return Number(db.prepare('SELECT count(*) AS n FROM callbacks_notification').get()!.n);
  } finally {
    db.close();
  }
};

describe('the inbox', () => {
  it('stores notifications (file 0600), marks duplicates by invitation and status, also after a reopen', async () => {
    const path = tmp();
    const w = Inbox.open(path);
    const a = await add(w, 5001, 'In Progress');
    const b = await add(w, 5001, 'Complete');
    const c = await add(w, 5001, 'completed'); // same status, other spelling
    w.close();
    expect([a.duplicate, b.duplicate, c.duplicate]).toEqual([false, false, true]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const w2 = Inbox.open(path);
    expect((await add(w2, 5001, 'Complete')).duplicate).toBe(true);
    expect((await add(w2, 5002, 'Complete')).duplicate).toBe(false);
    const records = [...notifications(w2.store)];
    w2.close();
    expect(records.map((r) => [r.invitationId, r.duplicate])).toEqual([
      ['5001', false],
      ['5001', false],
      ['5001', true],
      ['5001', true],
      ['5002', false],
    ]);
    expect(records[0]!.headers).toEqual({ 'content-type': 'application/json' });
  });

  it('keeps the body byte for byte (also when it is not UTF-8) and gives the same id to the same body', async () => {
    const path = tmp();
    const w = Inbox.open(path);
    const raw = Buffer.concat([
      Buffer.from(JSON.stringify(body(7, 'Complete')).slice(0, -1)),
      Buffer.from(',"X":"\xff"}', 'latin1'),
    ]);
    const r = await add(w, 7, 'Complete', raw);
    const [stored] = [...notifications(w.store)];
    w.close();
    expect(stored!.body.equals(raw)).toBe(true);
    expect(r.id).toBe(notificationId(raw));
    expect(notificationId(Buffer.from('a'))).not.toBe(notificationId(Buffer.from('b')));
  });

  it('commits notifications that arrive together in one transaction, each resolved after it', async () => {
    const path = tmp();
    const w = Inbox.open(path);
    let commits = 0;
    const write = w.store.write.bind(w.store);
    w.store.write = ((fn) => (commits++, write(fn))) as typeof w.store.write;
    const stored = await Promise.all([1, 2, 3, 4, 5].map((n) => add(w, n, 'Complete')));
    expect(commits).toBe(1);
    expect(count(path)).toBe(5); // what the promises resolved for is in the file, seen by another connection
    expect(stored.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    w.close();
  });

  it('a batch that cannot be committed fails every notification in it, and stores none of them', async () => {
    const path = tmp();
    const w = Inbox.open(path);
    await add(w, 1, 'Complete');
    const hold = new DatabaseSync(path);
    hold.exec('PRAGMA busy_timeout = 0; BEGIN IMMEDIATE'); // another process holds the write lock
    const env = { ASSESS_BUSY_TIMEOUT: '0' };
    const w2 = Inbox.open(path, env);
    const results = await Promise.allSettled([2, 3].map((n) => add(w2, n, 'Complete')));
    hold.exec('ROLLBACK');
    hold.close();
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/busy/);
    expect(count(path)).toBe(1);
    // the sender's retry is stored and is no duplicate
    expect((await add(w2, 2, 'Complete')).duplicate).toBe(false);
    w2.close();
    w.close();
  });
});

describe('receiver with the inbox', () => {
  it('answers 200 only after the notification is committed; 503 when it cannot be stored', async () => {
    const path = tmp();
    const w = Inbox.open(path);
    let fail = false;
    const seen: Received[] = [];
    const rx = await startReceiver({
      host: '127.0.0.1',
      port: 0,
      path: '/hook',
      onNotification: (n) => seen.push(n),
      onRejected: () => undefined,
      persist: async (n) => {
        if (fail) throw new Error('disk full');
        const before = count(path);
        await w.addNotification({ raw: n.raw, headers: n.headers ?? {}, at: n.at });
        // what the 200 promises: the record is committed already
        expect(count(path)).toBe(before + 1);
      },
    });
    try {
      const post = (id: number) =>
        fetch(rx.callbackUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'webhook-id': 'msg_x' },
          body: JSON.stringify(body(id, 'Complete')),
        });
      expect((await post(11)).status).toBe(200);
      fail = true;
      const refused = await post(12);
      expect(refused.status).toBe(503);
      expect(await refused.json()).toEqual({ error: 'the notification could not be stored: disk full' });
      expect(seen.map((n) => n.body.TestInvitationId)).toEqual([11]);
      const [rec] = [...notifications(w.store)];
      expect(rec!.headers['webhook-id']).toBe('msg_x');
    } finally {
      await rx.close();
      w.close();
    }
  });
});
