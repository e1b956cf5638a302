// reconcile, replay, inbox and verify in process, with an inbox written the way `callbacks
// listen` writes it: what is missing, --apply re-queueing exactly those (recorded, cooldown),
// exit 5 when some could not be; replay byte-identical and signed; verify; dead letters.
import { writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { Inbox } from '../../src/commands/callbacks/shared/inbox.js';
import { tempDir } from '../helpers/cli.js';
import { json, startServer } from '../helpers/http-server.js';
import { memoryProcess } from '../helpers/memory-io.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const t = tempDir();
afterAll(() => t.cleanup());

async function run(argv: string[], env: Record<string, string>) {
  const p = memoryProcess({ ASSESS_CONFIG_DIR: t.dir, CI: 'true', NO_COLOR: '1', ...env });
  const code = await runCli(argv, p);
  return { code, out: p.out(), err: p.err() };
}

describe('reconcile, replay, inbox, verify against a sandbox', () => {
  let ts: TestSandbox;
  let sink: Awaited<ReturnType<typeof startServer>>;
  const ids: string[] = [];
  const inbox = join(t.dir, 'callbacks.db');
  const secretFile = join(t.dir, 'webhook.secret');
  const payloads = new Map<string, string>();

  beforeAll(async () => {
    ts = await startTestSandbox();
    sink = await startServer((_r, res) => res.writeHead(200).end());
    for (let i = 0; i < 4; i++) {
      const r = await ts.service<{ testInvitationId: number }>('/v3/tests/1001/invite', {
        email: `rec${i}@example.com`,
        name: 'Rec Candidate',
        callbackUrl: `${sink.url}/hook`,
      });
      ids.push(String(r.testInvitationId));
      await ts.control('POST', `/invitations/${r.testInvitationId}/simulate`, { to: i === 3 ? 'leave' : 'complete' });
    }
    await ts.sb.idle(10_000);
    for (const r of sink.requests) {
      const b = JSON.parse(r.body);
      payloads.set(`${b.TestInvitationId}|${b.Status}`, r.body);
    }
    // the listener saw: 0 (In Progress, Complete twice), 1 (Complete), 2 (In Progress only), 3 nothing
    const w = Inbox.open(inbox);
    const add = (id: string, status: string) => {
      const raw = Buffer.from(payloads.get(`${id}|${status}`)!);
      return w.addNotification({
        raw,
        headers: { 'content-type': 'application/json' },
        at: new Date(),
        forwardTo: `${sink.url}/app`,
      });
    };
    await add(ids[0]!, 'In Progress');
    await add(ids[0]!, 'Complete');
    await add(ids[0]!, 'Complete');
    await add(ids[1]!, 'Complete');
    await add(ids[2]!, 'In Progress');
    w.close();
    writeFileSync(secretFile, `${SECRET}\n`);
  });
  afterAll(async () => {
    await ts.close();
    await sink.close();
  });

  it('inbox lists the records (duplicates marked), filters by status and time, in JSON and CSV', async () => {
    const all = await run(['callbacks', 'inbox', '--store', inbox, '--json'], ts.env);
    expect(all.code, all.err).toBe(0);
    const rows = JSON.parse(all.out);
    expect(rows.map((r: any) => [r.invitationId, r.status, r.duplicate])).toEqual([
      [Number(ids[0]), 'In Progress', false],
      [Number(ids[0]), 'Complete', false],
      [Number(ids[0]), 'Complete', true],
      [Number(ids[1]), 'Complete', false],
      [Number(ids[2]), 'In Progress', false],
    ]);
    expect(rows[1].notification.TestInvitationId).toBe(Number(ids[0]));
    const complete = await run(
      ['callbacks', 'inbox', '--store', inbox, '--status', 'COMPLETED', '--json', 'invitationId'],
      ts.env,
    );
    expect(JSON.parse(complete.out)).toEqual([
      { invitationId: Number(ids[0]) },
      { invitationId: Number(ids[0]) },
      { invitationId: Number(ids[1]) },
    ]);
    expect(
      JSON.parse((await run(['callbacks', 'inbox', '--store', inbox, '--since', '2099-01-01', '--json'], ts.env)).out),
    ).toEqual([]);
    const csv = await run(['callbacks', 'inbox', '--store', inbox, '--csv'], ts.env);
    expect(csv.out.split('\n')[0]).toMatch(/^receivedAt,invitationId,status,duplicate,id/);
    expect((await run(['callbacks', 'inbox', '--store', inbox, '--since', 'the day before'], ts.env)).code).toBe(2);
  });

  it('reconcile shows exactly the completed attempts with no terminal notification; nothing is sent without --apply', async () => {
    const r = await run(
      ['callbacks', 'reconcile', '--from', '1d', '--to', 'now', '--store', inbox, '--all', '--json'],
      ts.env,
    );
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).map((m: any) => [m.testInvitationId, m.testStatus])).toEqual([
      [Number(ids[2]), 'Complete'],
      [Number(ids[3]), 'Test Left'],
    ]);
    expect(r.err).toContain('4 completed attempts');
    expect(r.err).toContain('2 missing');
    const queued = await ts.control<{ callbacks: Array<{ reason: string }> }>('GET', '/callbacks');
    expect(queued.callbacks.filter((c) => c.reason === 'reprocess')).toHaveLength(0);
  });

  it('--apply re-queues exactly the missing ones, records them in the store; a second run within the cooldown does not', async () => {
    const first = await run(
      ['callbacks', 'reconcile', '--from', '1d', '--to', 'now', '--store', inbox, '--all', '--apply', '--json'],
      ts.env,
    );
    expect(first.code, first.err).toBe(0);
    expect(JSON.parse(first.out).map((m: any) => [m.testInvitationId, m.requeue])).toEqual([
      [Number(ids[2]), 'successful'],
      [Number(ids[3]), 'successful'],
    ]);
    const reprocessed = async () =>
      (
        await ts.control<{ callbacks: Array<{ reason: string; testInvitationId: number }> }>('GET', '/callbacks')
      ).callbacks
        .filter((c) => c.reason === 'reprocess')
        .map((c) => String(c.testInvitationId));
    expect((await reprocessed()).sort()).toEqual([ids[2], ids[3]].sort());
    const db = new DatabaseSync(inbox);
    const recorded = db.prepare('SELECT invitation_id, result FROM callbacks_requeue ORDER BY invitation_id').all();
    const runs = db.prepare('SELECT missing, requeued, failed FROM callbacks_reconcile_run').all();
    db.close();
    expect(recorded.map((e) => [e.invitation_id, e.result])).toEqual([
      [ids[2], 'successful'],
      [ids[3], 'successful'],
    ]);
    expect(runs).toEqual([{ missing: 2, requeued: 2, failed: 0 }]);

    const again = await run(
      ['callbacks', 'reconcile', '--from', '1d', '--to', 'now', '--store', inbox, '--all', '--apply', '--json'],
      ts.env,
    );
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out).map((m: any) => m.requeue)).toEqual(['earlier', 'earlier']);
    expect(await reprocessed()).toHaveLength(2);
    const forced = await run(
      [
        'callbacks',
        'reconcile',
        '--from',
        '1d',
        '--to',
        'now',
        '--store',
        inbox,
        '--all',
        '--apply',
        '--cooldown',
        '0',
      ],
      ts.env,
    );
    expect(forced.code).toBe(0);
    expect(await reprocessed()).toHaveLength(4);
  });

  it('bad flags: --state other than completed, a missing window, --journal (now the store) (exit 2)', async () => {
    expect(
      (await run(['callbacks', 'reconcile', '--from', '1d', '--to', 'now', '--state', 'expired'], ts.env)).err,
    ).toMatch(/--state: must be completed/);
    expect((await run(['callbacks', 'reconcile', '--to', 'now'], ts.env)).err).toMatch(/--from: is required/);
    expect((await run(['callbacks', 'reconcile', '--from', '1d', '--to', 'now', '--journal', 'j'], ts.env)).code).toBe(
      2,
    );
  });

  it('replay sends the stored body byte for byte, signed; callbacks verify accepts what arrived', async () => {
    const target = await startServer((_r, res) => res.writeHead(200).end());
    try {
      const r = await run(
        [
          'callbacks',
          'replay',
          ids[0]!,
          ids[1]!,
          '--store',
          inbox,
          '--to',
          `${target.url}/in`,
          '--sign',
          '--secret-file',
          secretFile,
          '--json',
        ],
        ts.env,
      );
      expect(r.code, r.err).toBe(0);
      // ids[0]: In Progress and Complete (its duplicate has the same webhook-id: sent once); ids[1]: Complete
      expect(JSON.parse(r.out).map((x: any) => [x.invitationId, x.status, x.result])).toEqual([
        [Number(ids[0]), 'In Progress', 'delivered'],
        [Number(ids[0]), 'Complete', 'delivered'],
        [Number(ids[1]), 'Complete', 'delivered'],
      ]);
      expect(target.requests.map((q) => q.body)).toEqual([
        payloads.get(`${ids[0]}|In Progress`),
        payloads.get(`${ids[0]}|Complete`),
        payloads.get(`${ids[1]}|Complete`),
      ]);
      const stored = target.requests.map((q) => JSON.stringify({ headers: q.headers, body: q.body })).join('\n');
      writeFileSync(join(t.dir, 'got.ndjson'), stored);
      const ok = await run(
        ['callbacks', 'verify', join(t.dir, 'got.ndjson'), '--secret-file', secretFile, '--json'],
        ts.env,
      );
      expect(ok.code, ok.err).toBe(0);
      expect(JSON.parse(ok.out).every((x: any) => x.valid)).toBe(true);
      expect(ok.err).toMatch(
        /requests? verified: each webhook-signature is the HMAC-SHA256 of "webhook-id\.webhook-timestamp\.body" with the secret, and its webhook-timestamp is within 5m of when it was received\./,
      );
      const q = target.requests[0]!;
      writeFileSync(
        join(t.dir, 'tampered.json'),
        JSON.stringify({ headers: q.headers, body: q.body.replace('In Progress', 'Complete') }),
      );
      const bad = await run(['callbacks', 'verify', join(t.dir, 'tampered.json'), '--secret-file', secretFile], ts.env);
      expect(bad.code).toBe(1);
      expect(bad.err).toMatch(/1 of 1 request does not verify: no signature matches/);
    } finally {
      await target.close();
    }
  });

  it('replay: default target from the inbox; unknown id exit 4; a failing target exit 5 and a dead letter', async () => {
    const before = sink.requests.length;
    const r = await run(['callbacks', 'replay', ids[1]!, '--store', inbox], ts.env);
    expect(r.code, r.err).toBe(0);
    expect(sink.requests.slice(before).map((q) => q.url)).toEqual(['/app']);
    expect((await run(['callbacks', 'replay', '999999', '--store', inbox], ts.env)).code).toBe(4);
    const down = await startServer((_r, res) => res.writeHead(500).end());
    try {
      const f = await run(
        ['callbacks', 'replay', ids[1]!, '--store', inbox, '--to', down.url, '--forward-retries', '1'],
        ts.env,
      );
      expect(f.code).toBe(5);
      expect(down.requests).toHaveLength(2);
    } finally {
      await down.close();
    }
    const failed = await run(['callbacks', 'inbox', '--store', inbox, '--failed', '--json'], ts.env);
    expect(JSON.parse(failed.out)).toEqual([
      expect.objectContaining({ invitationId: Number(ids[1]), status: 'Complete', tries: 2, error: 'HTTP 500' }),
    ]);
    const all = JSON.parse((await run(['callbacks', 'inbox', '--store', inbox, '--json', 'id'], ts.env)).out);
    expect(all).toHaveLength(5); // replay adds no notification
    expect((await run(['callbacks', 'replay', '--store', inbox], ts.env)).code).toBe(2);
    expect((await run(['callbacks', 'replay', ids[1]!, '--since', '1d', '--store', inbox], ts.env)).code).toBe(2);
  });
});

describe('reconcile --apply when the service refuses some ids', () => {
  it('an id the service answers "failed" for is not registered (no exit 5); an id it refuses (401) could not be re-queued: exit 5, a whole sentence', async () => {
    const attempt = (id: number) => ({
      testInvitationId: id,
      testId: 1001,
      name: 'N',
      email: `${id}@x.co`,
      invitationtype: 'email',
      testStatus: 'Complete',
    });
    let calls = 0;
    let successful = [71];
    const api = await startServer((req, res) => {
      if (req.url.includes('/v3/candidates/testattempts'))
        return json(res, 200, { result: { testAttempts: [attempt(71), attempt(72), attempt(73)] } });
      if (calls++ === 0)
        return json(res, 401, {
          result: null,
          errors: ['testinvitationIds does not belong to account or not found', '73'],
        });
      return json(res, 200, { result: { testinvitationIds: { successful, failed: [72] } } });
    });
    try {
      const env = { ASSESS_BASE_URL: api.url, ASSESS_API_KEY: 'k-0123456789abcdef' };
      const argv = [
        'callbacks',
        'reconcile',
        '--from',
        '1d',
        '--to',
        'now',
        '--store',
        join(t.dir, 'empty.db'),
        '--all',
        '--apply',
      ];
      const r = await run([...argv, '--json'], env);
      expect(r.code, r.err).toBe(5);
      expect(JSON.parse(r.out).map((m: any) => m.requeue)).toEqual(['successful', 'not registered', 'failed']);
      expect(r.err).toMatch(
        /1 of 3 missing notifications was re-queued; 1 could not be re-queued \(invitation 73: testinvitationIds does not belong to account or not found\)\./,
      );
      expect(r.err).toMatch(
        /1 attempt is not registered for a notification: the service would not re-queue them .*That is not a failure\./,
      );
      expect(JSON.parse(api.requests[1]!.body)).toEqual({ testinvitationIds: [71, 72, 73] });

      // only "not registered": exit 0
      calls = 1;
      successful = [71, 73];
      const ok = await run([...argv, '--cooldown', '0', '--json'], env);
      expect(ok.code, ok.err).toBe(0);
      // within the cooldown, 71 and 73 were re-queued on this service: not again
      const within = await run([...argv, '--json'], env);
      expect(JSON.parse(within.out).map((m: any) => m.requeue)).toEqual(['earlier', 'not registered', 'earlier']);

      // what is recorded is the service's at api.url: what was done there was not done at another one
      const elsewhere = await run([...argv, '--json'], { ...env, ASSESS_BASE_URL: `${api.url}/staging` });
      expect(elsewhere.code, elsewhere.err).toBe(0);
      expect(JSON.parse(elsewhere.out).map((m: any) => m.requeue)).toEqual([
        'successful',
        'not registered',
        'successful',
      ]);
    } finally {
      await api.close();
    }
  });
});
