// "Never miss a completion", end to end with the built binary: 200 attempts complete while the
// sandbox drops 10 % of the notifications → reconcile finds exactly the lost ones, --apply
// re-queues them, the inbox then holds every terminal notification once (a duplicate marked);
// replay reaches a second listener signed, and `callbacks verify` accepts it; a listener killed
// with kill -9 loses no acknowledged notification; forwarding dead letters; attempts wait exits.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedNotifications } from '../helpers/inbox-store.js';
import { runAssess, tempDir } from '../helpers/cli.js';
import { startServer } from '../helpers/http-server.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const TERMINAL = new Set(['Complete', 'Test Left', 'Terminated']);
type Delivery = { testInvitationId: number; event: string; state: string };

const notifications = (path: string) => storedNotifications(path).filter((r) => !r.quarantined);

describe('200 completions with 10 % of the notifications dropped', () => {
  let ts: TestSandbox;
  const cfg = tempDir();
  const inbox = join(cfg.dir, 'first.db');
  const secretFile = join(cfg.dir, 'webhook.secret');
  let listener: ReturnType<typeof spawnAssess>;
  let url: string;
  const ids: string[] = [];
  let lost: string[] = [];

  beforeAll(async () => {
    ts = await startTestSandbox();
    writeFileSync(secretFile, `${SECRET}\n`, { mode: 0o600 });
    listener = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--store', inbox], {
      configDir: cfg.dir,
    });
    url = await listener.firstLine();
    await ts.control('POST', '/delivery-faults', { spec: 'drop=0.1,seed=1234' });
    for (let i = 0; i < 200; i++) {
      const r = await ts.service<{ testInvitationId: number }>('/v3/tests/1001/invite', {
        email: `bulk${i}@example.com`,
        name: 'Bulk Candidate',
        callbackUrl: url,
      });
      ids.push(String(r.testInvitationId));
    }
    for (let i = 0; i < ids.length; i += 20)
      await Promise.all(
        ids.slice(i, i + 20).map((id) => ts.control('POST', `/invitations/${id}/simulate`, { to: 'complete' })),
      );
    expect(await ts.sb.idle(60_000)).toBe(true);
    const { deliveries } = await ts.control<{ deliveries: Delivery[] }>('GET', '/deliveries');
    lost = deliveries
      .filter((d) => TERMINAL.has(d.event) && d.state === 'failed')
      .map((d) => String(d.testInvitationId));
    await ts.control('DELETE', '/delivery-faults');
  }, 120_000);
  afterAll(async () => {
    await listener?.stop();
    await ts.close();
    cfg.cleanup();
  });

  it('reconcile finds exactly the lost ones, --apply re-queues them, then the inbox holds every terminal notification once', async () => {
    expect(lost.length).toBeGreaterThan(5); // about 10 % of 200
    expect(lost.length).toBeLessThan(45);
    const terminalIn = () =>
      new Set(
        notifications(inbox)
          .filter((r) => TERMINAL.has(r.status ?? ''))
          .map((r) => r.invitationId),
      );
    await waitFor(() => terminalIn().size === 200 - lost.length, { what: 'the delivered notifications in the inbox' });

    // invited over HTTP, not through this CLI: no ledger
    const window = ['--from', '1d', '--to', 'now', '--store', inbox, '--all'];
    const seen = await runAssess(['callbacks', 'reconcile', ...window, '--json'], { env: ts.env, configDir: cfg.dir });
    expect(seen.code, seen.stderr).toBe(0);
    expect(
      JSON.parse(seen.stdout)
        .map((m: { testInvitationId: number }) => m.testInvitationId)
        .sort(),
    ).toEqual([...lost].map(Number).sort()); // ids print as numbers (the id rule)

    const applied = await runAssess(['callbacks', 'reconcile', ...window, '--apply', '--json'], {
      env: ts.env,
      configDir: cfg.dir,
    });
    expect(applied.code, applied.stderr).toBe(0);
    const rows = JSON.parse(applied.stdout) as Array<{ testInvitationId: number; requeue: string }>;
    expect(rows.map((r) => r.testInvitationId).sort()).toEqual([...lost].map(Number).sort());
    expect(rows.every((r) => r.requeue === 'successful')).toBe(true);
    await waitFor(() => terminalIn().size === 200, { what: 'the re-queued notifications in the inbox' });

    // one of them sent once more (callbacks process): it arrives, and is marked a duplicate
    expect((await runAssess(['callbacks', 'process', ids[0]!], { env: ts.env, configDir: cfg.dir })).code).toBe(0);
    await waitFor(() => notifications(inbox).some((r) => r.duplicate), { what: 'the duplicate' });
    const terminal = notifications(inbox).filter((r) => TERMINAL.has(r.status ?? ''));
    const firsts = terminal.filter((r) => !r.duplicate);
    expect(firsts).toHaveLength(200);
    expect(new Set(firsts.map((r) => r.invitationId)).size).toBe(200);
    // only ids[0] is repeated (the sandbox may deliver it once more when a busy machine delays
    // the 200 past its 5 s per try: at least once)
    expect([...new Set(terminal.filter((r) => r.duplicate).map((r) => r.invitationId))]).toEqual([ids[0]]);

    const after = await runAssess(['callbacks', 'reconcile', ...window, '--json'], { env: ts.env, configDir: cfg.dir });
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout)).toEqual([]);
    const dup = await runAssess(
      ['callbacks', 'inbox', '--store', inbox, '--status', 'complete', '--json', 'invitationId,duplicate'],
      { configDir: cfg.dir },
    );
    expect(JSON.parse(dup.stdout).filter((r: { duplicate: boolean }) => r.duplicate)).toEqual([
      { invitationId: Number(ids[0]), duplicate: true },
    ]);
  }, 120_000);

  it('replay reaches a second listener with valid signatures, bodies byte for byte; callbacks verify accepts them', async () => {
    const second = join(cfg.dir, 'second.db');
    const l2 = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--store', second], {
      configDir: cfg.dir,
    });
    try {
      const url2 = await l2.firstLine();
      const picked = lost.slice(0, 5);
      const r = await runAssess(
        [
          'callbacks',
          'replay',
          ...picked,
          '--store',
          inbox,
          '--to',
          url2,
          '--sign',
          '--secret-file',
          secretFile,
          '--json',
        ],
        {
          configDir: cfg.dir,
        },
      );
      expect(r.code, r.stderr).toBe(0);
      const sent = JSON.parse(r.stdout) as Array<{ id: string; result: string }>;
      expect(sent.every((s) => s.result === 'delivered')).toBe(true);
      await waitFor(() => notifications(second).length === sent.length, {
        what: 'the replayed notifications at the second listener',
      });
      const byId = new Map(notifications(inbox).map((n) => [n.id, n]));
      for (const got of notifications(second)) {
        expect(got.headers['webhook-id']).toBe(got.id); // stable: the id is the body's
        expect(got.body.equals(byId.get(got.id)!.body)).toBe(true);
        expect(got.headers['webhook-signature']).toMatch(/^v1,/);
      }
      const ok = await runAssess(['callbacks', 'verify', '--store', second, '--secret-file', secretFile, '--json'], {
        configDir: cfg.dir,
      });
      expect(ok.code, ok.stderr).toBe(0);
      expect(JSON.parse(ok.stdout)).toHaveLength(sent.length);
      const wrong = join(cfg.dir, 'wrong.secret');
      writeFileSync(wrong, `whsec_${Buffer.alloc(24, 7).toString('base64')}\n`);
      const refused = await runAssess(['callbacks', 'verify', '--store', second, '--secret-file', wrong], {
        configDir: cfg.dir,
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/do not verify: no signature matches/);
    } finally {
      await l2.stop();
    }
  }, 60_000);
});

describe('a listener killed with kill -9', () => {
  it('loses no acknowledged notification; after a restart duplicates are still recognised', async () => {
    const cfg = tempDir();
    try {
      const body = (n: number) =>
        JSON.stringify({
          CandidateEmailId: `k${n}@example.com`,
          AttemptedOn: null,
          AttemptedOnUtc: null,
          TotalScore: 10,
          CandidateScore: 5,
          ReportPDFUrl: null,
          TestInvitationId: 700000 + n,
          Status: 'Complete',
          PerformanceCategory: null,
        });
      const l = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url'], { configDir: cfg.dir });
      const url = await l.firstLine();
      const acked: number[] = [];
      let n = 0;
      const senders = Array.from({ length: 8 }, async () => {
        for (;;) {
          const i = n++;
          try {
            const res = await fetch(url, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: body(i),
            });
            if (res.status === 200) acked.push(i);
          } catch {
            return; // the listener is gone
          }
        }
      });
      await waitFor(() => acked.length >= 150, { what: '150 acknowledged notifications' });
      l.child.kill('SIGKILL');
      await Promise.all(senders);
      expect((await l.done).signal).toBe('SIGKILL');
      // the default store: <config dir>/store/<profile>.db, read through `callbacks inbox`
      const listed = await runAssess(['callbacks', 'inbox', '--json', 'invitationId'], { configDir: cfg.dir });
      expect(listed.code, listed.stderr).toBe(0);
      const stored = new Set(
        (JSON.parse(listed.stdout) as Array<{ invitationId: string }>).map((r) => Number(r.invitationId) - 700000),
      );
      expect(acked.filter((i) => !stored.has(i))).toEqual([]);

      const again = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url'], { configDir: cfg.dir });
      try {
        const url2 = await again.firstLine();
        expect((await fetch(url2, { method: 'POST', body: body(acked[0]!) })).status).toBe(200);
        await waitFor(async () => {
          const r = await runAssess(['callbacks', 'inbox', '--json', 'invitationId,duplicate'], { configDir: cfg.dir });
          return (JSON.parse(r.stdout) as Array<{ duplicate: boolean }>).some((x) => x.duplicate);
        });
      } finally {
        await again.stop();
      }
      const check = await runAssess(['store', 'check'], { configDir: cfg.dir });
      expect(check.code, check.stderr).toBe(0);
    } finally {
      cfg.cleanup();
    }
  }, 60_000);
});

describe('forwarding with a delivery policy', () => {
  it('signed forwards verify; a target that keeps failing becomes a dead letter, shown by inbox --failed', async () => {
    const cfg = tempDir();
    let failing = true;
    const app = await startServer((_r, res) => res.writeHead(failing ? 503 : 200).end());
    writeFileSync(join(cfg.dir, 's'), `${SECRET}\n`);
    const l = spawnAssess(
      [
        'callbacks',
        'listen',
        '--port',
        '0',
        '--print-url',
        '--forward-to',
        `${app.url}/app`,
        '--sign',
        '--secret-file',
        join(cfg.dir, 's'),
        '--forward-retries',
        '2',
        '--forward-backoff',
        '50ms',
      ],
      {
        configDir: cfg.dir,
      },
    );
    try {
      const url = await l.firstLine().catch(async () => {
        throw new Error(l.stderr());
      });
      const post = (id: number) =>
        fetch(url, {
          method: 'POST',
          body: JSON.stringify({
            CandidateEmailId: 'f@example.com',
            AttemptedOn: null,
            AttemptedOnUtc: null,
            TotalScore: 1,
            CandidateScore: 1,
            ReportPDFUrl: null,
            TestInvitationId: id,
            Status: 'Complete',
            PerformanceCategory: null,
          }),
        });
      expect((await post(801)).status).toBe(200);
      await waitFor(() => /could not forward invitation 801 \(Complete\) .* \(3 tries\): HTTP 503/.test(l.stderr()), {
        what: 'the dead letter',
        timeoutMs: 30_000,
      });
      expect(app.requests).toHaveLength(3);
      const failed = await runAssess(['callbacks', 'inbox', '--failed', '--json'], { configDir: cfg.dir });
      expect(JSON.parse(failed.stdout)).toEqual([
        expect.objectContaining({ invitationId: 801, tries: 3, error: 'HTTP 503', target: `${app.url}/app` }),
      ]);
      failing = false;
      expect((await post(802)).status).toBe(200);
      await waitFor(() => /forwarded invitation 802/.test(l.stderr()), { what: 'the forward' });
      const last = app.requests.at(-1)!;
      writeFileSync(join(cfg.dir, 'req.json'), JSON.stringify({ headers: last.headers, body: last.body }));
      const v = await runAssess(
        ['callbacks', 'verify', join(cfg.dir, 'req.json'), '--secret-file', join(cfg.dir, 's')],
        { configDir: cfg.dir },
      );
      expect(v.code, v.stderr).toBe(0);
      // the dead letter is replayed to the listener's forward target (recorded in the store)
      const replay = await runAssess(['callbacks', 'replay', '801', '--sign', '--secret-file', join(cfg.dir, 's')], {
        configDir: cfg.dir,
      });
      expect(replay.code, replay.stderr).toBe(0);
      expect(app.requests.at(-1)!.body).toContain('"TestInvitationId":801');
    } finally {
      await l.stop();
      await app.close();
      cfg.cleanup();
    }
  }, 60_000);
});

describe('attempts wait (built binary)', () => {
  let ts: TestSandbox;
  beforeAll(async () => (ts = await startTestSandbox()));
  afterAll(() => ts.close());
  const invite = async (email: string, move?: string) => {
    const r = await ts.service<{ testInvitationId: number }>('/v3/tests/1001/invite', {
      email,
      name: 'Wait Candidate',
    });
    if (move) await ts.control('POST', `/invitations/${r.testInvitationId}/simulate`, { to: move });
    return String(r.testInvitationId);
  };

  it('exits 0 reached, 4 unknown id (the service answers 401 "not found"), 6 timeout, 1 cannot reach the target', async () => {
    const done = await invite('w0@example.com', 'complete');
    const pending = await invite('w6@example.com');
    const expired = await invite('w1@example.com', 'expire');
    const r0 = await runAssess(['attempts', 'wait', done, '--until', 'complete'], { env: ts.env });
    expect([r0.code, r0.stdout.trim()]).toEqual([0, `${done}\tComplete\treached`]);
    expect((await runAssess(['attempts', 'wait', '99999999', '--until', 'complete'], { env: ts.env })).code).toBe(4);
    const r6 = await runAssess(
      ['attempts', 'wait', pending, '--until', 'started', '--interval', '200ms', '--timeout', '1s'],
      { env: ts.env },
    );
    expect(r6.code).toBe(6);
    expect(r6.stderr).toMatch(/timed out after 1s/);
    const r1 = await runAssess(['attempts', 'wait', expired, '--until', 'complete'], { env: ts.env });
    expect(r1.code).toBe(1);
    expect(r1.stderr).toMatch(new RegExp(`${expired} ended Expired: cannot reach complete`));
  }, 60_000);
});

describe('sandbox serve --delivery-faults', () => {
  it('starts with the delivery faults set (GET /_sandbox/delivery-faults shows them); a bad spec is exit 2', async () => {
    const s = spawnAssess([
      'sandbox',
      'serve',
      '--port',
      '0',
      '--json',
      '--delivery-faults',
      'drop=0.25,hang=0.1,seed=5',
    ]);
    try {
      const { baseUrl } = JSON.parse(await s.firstLine());
      const view = (await (await fetch(`${baseUrl}/_sandbox/delivery-faults`)).json()) as { spec: string };
      expect(view.spec).toBe('drop=0.25,hang=0.1,seed=5');
      await waitFor(() => /Failing callback deliveries: drop=0.25,hang=0.1,seed=5/.test(s.stderr()));
    } finally {
      await s.stop();
    }
    const bad = await runAssess(['sandbox', 'serve', '--delivery-faults', 'lose=1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--delivery-faults: unknown delivery fault 'lose'/);
  });
});
