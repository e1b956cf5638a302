// The durable inbox: records written before the receiver answers 200, duplicates (same invitation
// and status) marked across restarts, a torn last line repaired, non-UTF-8 bodies kept exactly;
// and the receiver answering 503 when the inbox cannot store a notification.
import { appendFileSync, mkdtempSync, rmSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  bodyBytes,
  InboxWriter,
  notificationId,
  readInbox,
  type NotificationRecord,
} from '../../src/commands/callbacks/shared/inbox.js';
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
const tmp = () => join(madeDir('assess-inbox-'), 'sub', 'inbox.ndjson');

async function add(w: InboxWriter, id: number, status: string, raw = Buffer.from(JSON.stringify(body(id, status)))) {
  return w.appendNotification({
    raw,
    headers: { 'content-type': 'application/json', 'x-other': 'dropped' },
    at: new Date('2026-03-01T10:00:00Z'),
  });
}

describe('InboxWriter', () => {
  it('appends records (file 0600), marks duplicates by invitation and status, also after a reopen', async () => {
    const path = tmp();
    const w = InboxWriter.open(path);
    const a = await add(w, 5001, 'In Progress');
    const b = await add(w, 5001, 'Complete');
    const c = await add(w, 5001, 'complete'); // same status, other spelling
    await w.close();
    expect([a.duplicate, b.duplicate, c.duplicate]).toEqual([false, false, true]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const w2 = InboxWriter.open(path);
    expect((await add(w2, 5001, 'Complete')).duplicate).toBe(true);
    expect((await add(w2, 5002, 'Complete')).duplicate).toBe(false);
    await w2.close();
    const { records } = readInbox(path);
    expect(records.map((r) => [(r as NotificationRecord).invitationId, (r as NotificationRecord).duplicate])).toEqual([
      ['5001', false],
      ['5001', false],
      ['5001', true],
      ['5001', true],
      ['5002', false],
    ]);
    expect((records[0] as NotificationRecord).headers).toEqual({ 'content-type': 'application/json' });
  });

  it('keeps the body byte for byte (base64 when it is not UTF-8) and gives the same id to the same body', async () => {
    const path = tmp();
    const w = InboxWriter.open(path);
    const raw = Buffer.concat([
      Buffer.from(JSON.stringify(body(7, 'Complete')).slice(0, -1)),
      Buffer.from(',"X":"\xff"}', 'latin1'),
    ]);
    const r = await add(w, 7, 'Complete', raw);
    await w.close();
    const [stored] = readInbox(path).records as NotificationRecord[];
    expect(stored!.bodyBase64).toBeDefined();
    expect(bodyBytes(stored!).equals(raw)).toBe(true);
    expect(r.id).toBe(notificationId(raw));
    expect(notificationId(Buffer.from('a'))).not.toBe(notificationId(Buffer.from('b')));
  });

  it('cuts a torn last line (kill -9 in the middle of a write) when opened; concurrent appends share fsyncs', async () => {
    const path = tmp();
    const w = InboxWriter.open(path);
    await Promise.all([1, 2, 3, 4, 5].map((n) => add(w, n, 'Complete')));
    await w.close();
    appendFileSync(path, '{"type":"notification","receivedAt":"2026-');
    expect(readInbox(path).records).toHaveLength(5); // the reader ignores the torn tail
    const w2 = InboxWriter.open(path);
    await add(w2, 6, 'Complete');
    await w2.close();
    const { records, unreadable } = readInbox(path);
    expect(unreadable).toBe(0);
    expect(records.map((r) => (r as NotificationRecord).invitationId)).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it('counts unreadable lines without failing', () => {
    const path = join(madeDir('assess-inbox-'), 'x.ndjson');
    writeFileSync(
      path,
      'not json\n{"type":"other"}\n{"type":"dead-letter","at":"2026-03-01T00:00:00Z","id":"msg_1","invitationId":"1","status":"Complete","target":"http://x","tries":6,"error":"HTTP 500"}\n',
    );
    const r = readInbox(path);
    expect(r.unreadable).toBe(2);
    expect(r.records).toHaveLength(1);
  });
});

describe('receiver with a durable inbox', () => {
  it('answers 200 only after the notification is stored; 503 when it cannot be stored', async () => {
    const path = tmp();
    const w = InboxWriter.open(path);
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
        await w.appendNotification({ raw: n.raw, headers: n.headers ?? {}, at: n.at });
        // what the 200 promises: the record is in the file already
        expect(readFileSync(path, 'utf8')).toContain(`"invitationId":"${String(n.body.TestInvitationId)}"`);
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
      const [rec] = readInbox(path).records as NotificationRecord[];
      expect(rec!.headers['webhook-id']).toBe('msg_x');
    } finally {
      await rx.close();
      await w.close();
    }
  });
});
