// The nightly recipe of docs/scripting.md, end to end: the script is taken from the document and
// run by bash with `assess` (the built binary) and jq on PATH, against a sandbox whose population
// is mixed — invitations created by this CLI with a callback URL (bulk and single) and without
// one — while the sandbox drops some deliveries and the application refuses some forwards. The
// recipe exits 0, re-queues exactly the registered attempts whose notification is missing, and
// replays the dead letters, which `inbox --failed` then no longer lists; a second night is quiet.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryLog, profileStore, storedNotifications } from '../helpers/inbox-store.js';
import { assessShim, baseEnv, runAssess, tempDir } from '../helpers/cli.js';
import { startServer } from '../helpers/http-server.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const TERMINAL = new Set(['Complete', 'Test Left', 'Terminated']);
type Delivery = { testInvitationId: number; event: string; state: string };

/** The nightly script as docs/scripting.md shows it. */
function recipe(): string {
  const doc = readFileSync(join(import.meta.dirname, '../../docs/scripting.md'), 'utf8');
  const m = /```sh\n(#!\/usr\/bin\/env bash\n# nightly:[\s\S]*?)```/.exec(doc);
  if (!m) throw new Error('docs/scripting.md has no nightly recipe');
  return m[1]!;
}

describe('the nightly recipe on a mixed population', () => {
  let ts: TestSandbox;
  const cfg = tempDir();
  const work = join(cfg.dir, 'night');
  const secretFile = join(cfg.dir, 'webhook.secret');
  const inbox = profileStore(cfg.dir);
  let app: Awaited<ReturnType<typeof startServer>>;
  let listener: ReturnType<typeof spawnAssess>;
  let env: Record<string, string>;
  const registered: string[] = [];
  const unregistered: string[] = [];
  let lost: string[] = [];
  let refusedForwards = 0;

  beforeAll(async () => {
    ts = await startTestSandbox();
    mkdirSync(work, { recursive: true });
    writeFileSync(secretFile, `${SECRET}\n`, { mode: 0o600 });
    // the application refuses its first 4 forwards (503): they become dead letters (no retries)
    app = await startServer((_q, res, n) => {
      if (n <= 4) refusedForwards++;
      res.writeHead(n <= 4 ? 503 : 200).end();
    });
    listener = spawnAssess(
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
        secretFile,
        '--forward-retries',
        '0',
      ],
      { configDir: cfg.dir },
    );
    const url = await listener.firstLine();
    await ts.control('POST', '/delivery-faults', { spec: 'drop=0.25,seed=4242' });

    // 30 rows through invite --from-csv: 20 with the listener's URL, 10 without a callback
    const rows = ['email,name,callbackUrl'];
    for (let i = 0; i < 30; i++) rows.push(`night${i}@example.com,Night ${i},${i % 3 === 2 ? '' : url}`);
    writeFileSync(join(work, 'cohort.csv'), `${rows.join('\n')}\n`);
    const bulk = await runAssess(
      [
        'invite',
        '1001',
        '--from-csv',
        join(work, 'cohort.csv'),
        '--results',
        join(work, 'r.ndjson'),
        '--journal',
        join(work, 'j.ndjson'),
      ],
      { env: ts.env, configDir: cfg.dir },
    );
    expect(bulk.code, bulk.stderr).toBe(0);
    for (const line of readFileSync(join(work, 'r.ndjson'), 'utf8').split('\n').filter(Boolean)) {
      const r = JSON.parse(line) as { testInvitationId?: number; row?: { callbackUrl?: string } };
      if (r.testInvitationId === undefined) continue;
      (r.row?.callbackUrl ? registered : unregistered).push(String(r.testInvitationId));
    }
    // one single invite with a callback URL, one without
    for (const [email, cb] of [
      ['single-cb@example.com', ['--callback-url', url]],
      ['single-none@example.com', []],
    ] as const) {
      const s = await runAssess(
        ['invite', '1001', '--email', email, '--name', 'Single', ...cb, '--json', 'testInvitationId'],
        {
          env: ts.env,
          configDir: cfg.dir,
        },
      );
      expect(s.code, s.stderr).toBe(0);
      (cb.length ? registered : unregistered).push(String(JSON.parse(s.stdout).testInvitationId));
    }
    expect(registered).toHaveLength(21);
    expect(unregistered).toHaveLength(11);

    for (const id of [...registered, ...unregistered])
      await ts.control('POST', `/invitations/${id}/simulate`, { to: 'complete' });
    expect(await ts.sb.idle(60_000)).toBe(true);
    const { deliveries } = await ts.control<{ deliveries: Delivery[] }>('GET', '/deliveries');
    lost = deliveries
      .filter((d) => TERMINAL.has(d.event) && d.state === 'failed')
      .map((d) => String(d.testInvitationId));
    await ts.control('DELETE', '/delivery-faults');
    const delivered = registered.filter((id) => !lost.includes(id));
    await waitFor(
      () => {
        const got = new Set(
          storedNotifications(inbox)
            .filter((r) => TERMINAL.has(r.status ?? ''))
            .map((r) => r.invitationId),
        );
        return delivered.every((id) => got.has(id));
      },
      { what: 'the delivered notifications in the inbox' },
    );
    await waitFor(() => deliveryLog(inbox).length >= app.requests.length && app.requests.length > 4, {
      what: 'the forwards settled',
    });

    // `assess` on PATH: the built binary
    const bin = assessShim(join(cfg.dir, 'bin'));
    env = { ...baseEnv(cfg.dir), ...ts.env, PATH: `${bin}:${process.env.PATH}` };
  }, 120_000);
  afterAll(async () => {
    await listener?.stop();
    await app?.close();
    await ts?.close();
    cfg.cleanup();
  });

  // asynchronously: the application this process runs must answer the replays meanwhile
  const night = () =>
    new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn('bash', ['-c', recipe()], { cwd: work, env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('close', (status) => (clearTimeout(timer), resolve({ status, stderr })));
    });

  it('exits 0, re-queues exactly the registered attempts that are missing, and replays the dead letters', async () => {
    expect(lost.length).toBeGreaterThan(0);
    const lostRegistered = lost.filter((id) => registered.includes(id)).sort();
    expect(lost.filter((id) => unregistered.includes(id))).toEqual([]); // no callback URL: nothing was ever sent
    expect(refusedForwards).toBe(4);
    const failedBefore = await runAssess(['callbacks', 'inbox', '--failed', '--json', 'invitationId'], {
      configDir: cfg.dir,
    });
    expect(JSON.parse(failedBefore.stdout)).toHaveLength(4);
    const forwardsBefore = app.requests.length;

    const first = await night();
    expect(first.status, first.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(work, 'reconcile.json'), 'utf8')) as Array<{
      testInvitationId: string;
      requeue: string;
    }>;
    expect(report.map((r) => String(r.testInvitationId)).sort()).toEqual(lostRegistered);
    expect(report.every((r) => r.requeue === 'successful')).toBe(true);
    expect(first.stderr).toMatch(/of them registered a callback URL through this CLI/);
    // the 4 dead letters were replayed, signed, and are settled
    const replayed = app.requests.slice(forwardsBefore).filter((q) => q.url === '/app');
    expect(replayed.length).toBeGreaterThanOrEqual(4);
    expect(replayed.every((q) => typeof q.headers['webhook-signature'] === 'string')).toBe(true);
    const failedAfter = await runAssess(['callbacks', 'inbox', '--failed', '--json'], { configDir: cfg.dir });
    expect(JSON.parse(failedAfter.stdout)).toEqual([]);

    // the re-queued notifications arrive; the next night re-queues nothing and replays nothing
    expect(await ts.sb.idle(30_000)).toBe(true);
    await waitFor(
      () => {
        const got = new Set(
          storedNotifications(inbox).flatMap((r) => (TERMINAL.has(r.status ?? '') ? [r.invitationId] : [])),
        );
        return registered.every((id) => got.has(id));
      },
      { what: 'the re-queued notifications' },
    );
    const before = app.requests.length;
    await waitFor(() => deliveryLog(inbox).length >= app.requests.length, {
      what: 'the forwards of the re-queued notifications',
    });
    const second = await night();
    expect(second.status, second.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(work, 'reconcile.json'), 'utf8'))).toEqual([]);
    expect(app.requests.length).toBe(before);
  }, 120_000);
});
