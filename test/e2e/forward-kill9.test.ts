// Forwarding survives kill -9, with the built binary: a listener forwarding
// to a slow application is killed with SIGKILL at a seeded moment (after a seeded number of
// acknowledged notifications, then a seeded pause), restarted on the same store, killed again at
// a seeded moment of its resuming, and restarted once more. Nothing
// acknowledged is lost: each was forwarded or is listed by `callbacks inbox --failed`.
// Restarted without --forward-to, what was left becomes dead letters; `callbacks replay` then
// sends them signed as the listener signed them (same webhook-id, no --sign needed) and marks them
// delivered, so `inbox --failed` no longer lists them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { notificationId } from '../../src/commands/callbacks/shared/inbox.js';
import { queuedForwards } from '../helpers/inbox-store.js';
import { verify } from '../../src/commands/callbacks/shared/signing.js';
import { runAssess, tempDir } from '../helpers/cli.js';
import { startServer } from '../helpers/http-server.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';
import { seededRandom } from '../../src/sandbox/fault-spec.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const N = 40;

const body = (round: number, i: number) =>
  JSON.stringify({
    CandidateEmailId: `c${i}@example.com`,
    AttemptedOnUtc: '2026-03-01T10:00:00',
    TotalScore: 10,
    CandidateScore: i % 10,
    ReportPDFUrl: null,
    TestInvitationId: round * 1000 + i,
    Status: 'Complete',
  });

/** Sends N notifications one after the other, killing the listener with SIGKILL after `killAfter` acknowledgements and
 * a pause. */
async function sendAndKill(
  url: string,
  listener: ReturnType<typeof spawnAssess>,
  round: number,
  killAfter: number,
  pauseMs: number,
) {
  const acked: string[] = [];
  for (let i = 0; i < N; i++) {
    const b = body(round, i);
    try {
      const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: b });
      await r.arrayBuffer();
      if (r.status === 200) acked.push(b);
    } catch {
      break; // the listener is gone
    }
    if (acked.length === killAfter) {
      await new Promise((r) => setTimeout(r, pauseMs));
      listener.child.kill('SIGKILL');
      await listener.done;
      break;
    }
  }
  return acked;
}

/**
 * The user's application, slow (30 ms an answer) and, until `release()`, answering nothing: the
 * first listener's forwards stay queued when it is killed, however fast this machine is.
 */
async function application() {
  let holding = true;
  const held: Array<() => void> = [];
  const app = await startServer((_q, res) => {
    const answer = () => setTimeout(() => res.writeHead(200).end(), 30);
    if (holding) held.push(answer);
    else answer();
  });
  const release = () => {
    holding = false;
    for (const answer of held.splice(0)) answer();
  };
  return { app, release };
}

describe('kill -9 of callbacks listen --forward-to, then a restart', () => {
  const cfg = tempDir();
  const secretFile = join(cfg.dir, 'webhook.secret');
  writeFileSync(secretFile, `${SECRET}\n`, { mode: 0o600 });
  afterAll(() => cfg.cleanup());

  for (const seed of [11, 29, 47]) {
    it(`seed ${seed}: every acknowledged notification is forwarded after the restart, or listed as failed`, async () => {
      const r = seededRandom(seed);
      const killAfter = 5 + Math.floor(r() * (N - 10));
      const pauseMs = Math.floor(r() * 40);
      const { app, release } = await application();
      const inbox = join(cfg.dir, `kill-${seed}.db`);
      const args = [
        'callbacks',
        'listen',
        '--port',
        '0',
        '--print-url',
        '--store',
        inbox,
        '--forward-to',
        `${app.url}/app`,
        '--forward-backoff',
        '10ms',
        '--forward-concurrency',
        '1', // one at a time, so that the kill surely leaves forwards queued
      ];
      try {
        const first = spawnAssess([...args, '--sign', '--secret-file', secretFile], { configDir: cfg.dir });
        const url = await first.firstLine();
        const acked = await sendAndKill(url, first, seed, killAfter, pauseMs);
        expect(acked).toHaveLength(killAfter);
        const forwardedBeforeKill = new Set(app.requests.map((q) => q.body)).size;
        // the kill left forwards queued (what kill -9 used to lose)
        expect(forwardedBeforeKill).toBeLessThan(acked.length);
        release();

        // the restarted listener is killed too, at a seeded moment of its resuming; a third one finishes
        const second = spawnAssess([...args, '--sign', '--secret-file', secretFile], { configDir: cfg.dir });
        await second.firstLine();
        await waitFor(
          () =>
            /Resuming \d+ notifications? an earlier listener acknowledged and did not forward yet\./.test(
              second.stderr(),
            ),
          {
            what: 'the listener saying it resumes',
          },
        );
        await new Promise((done) => setTimeout(done, Math.floor(r() * 60)));
        second.child.kill('SIGKILL');
        await second.done;
        const third = spawnAssess([...args, '--sign', '--secret-file', secretFile], { configDir: cfg.dir });
        await third.firstLine();
        await waitFor(() => queuedForwards(inbox) === 0, {
          what: 'the resumed forwards',
        });
        await third.stop();

        const failed = await runAssess(['callbacks', 'inbox', '--store', inbox, '--failed', '--json', 'id'], {
          configDir: cfg.dir,
        });
        expect(failed.code, failed.stderr).toBe(0);
        const failedIds = new Set((JSON.parse(failed.stdout) as Array<{ id: string }>).map((x) => x.id));
        const received = new Set(app.requests.map((q) => q.body));
        const lost = acked.filter((b) => !received.has(b) && !failedIds.has(notificationId(Buffer.from(b))));
        expect(lost).toEqual([]);
        // every forward, resumed or not, was signed with the same secret and a webhook-id stable per notification
        for (const q of app.requests) {
          expect(q.headers['webhook-id']).toBe(notificationId(Buffer.from(q.body)));
          expect(verify(SECRET, q.headers as Record<string, string>, Buffer.from(q.body), new Date())).toEqual({
            ok: true,
          });
        }
      } finally {
        await app.close();
      }
    });
  }

  it('restarted without --forward-to: what was left is listed as failed; replay sends it signed as forwarded, then it is no longer failed', async () => {
    const { app, release } = await application();
    const inbox = join(cfg.dir, 'orphans.db');
    const target = `${app.url}/app`;
    try {
      const first = spawnAssess(
        [
          'callbacks',
          'listen',
          '--port',
          '0',
          '--print-url',
          '--store',
          inbox,
          '--forward-to',
          target,
          '--sign',
          '--secret-file',
          secretFile,
        ],
        {
          configDir: cfg.dir,
        },
      );
      const acked = await sendAndKill(await first.firstLine(), first, 9, 20, 0);
      expect(acked).toHaveLength(20);
      release();
      const waiting = await runAssess(['callbacks', 'inbox', '--store', inbox, '--failed', '--json'], {
        configDir: cfg.dir,
      });
      expect(JSON.parse(waiting.stdout)).toEqual([]); // not failed: still to be forwarded
      expect(waiting.stderr).toMatch(
        /\d+ notifications? (?:was|were) acknowledged and (?:is|are) not forwarded yet \(not failed\): a listener forwarding to .*\/app sends them/,
      );

      const second = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--store', inbox], {
        configDir: cfg.dir,
      });
      await second.firstLine();
      await second.stop();
      expect(second.stderr()).toMatch(
        /\d+ notifications? an earlier listener never forwarded \(to another target\) (?:is now a dead letter|are now dead letters)/,
      );

      const failed = await runAssess(
        ['callbacks', 'inbox', '--store', inbox, '--failed', '--json', 'id,invitationId'],
        { configDir: cfg.dir },
      );
      const rows = JSON.parse(failed.stdout) as Array<{ id: string; invitationId: string }>;
      const received = new Set(app.requests.map((q) => q.body));
      expect(
        acked.filter((b) => !received.has(b) && !rows.some((x) => x.id === notificationId(Buffer.from(b)))),
      ).toEqual([]);
      expect(rows.length).toBeGreaterThan(0);

      const before = app.requests.length;
      const replay = await runAssess(['callbacks', 'replay', '--store', inbox, ...rows.map((x) => x.invitationId)], {
        configDir: cfg.dir,
      });
      expect(replay.code, replay.stderr).toBe(0);
      expect(replay.stderr).toMatch(
        /Signed \(Standard Webhooks, the same webhook-id per notification\) with the secret from .*webhook\.secret\./,
      );
      const replayed = app.requests.slice(before);
      // each dead letter once, by its webhook-id (a try the replay timed out on a busy machine is sent again)
      expect(new Set(replayed.map((q) => q.headers['webhook-id']))).toEqual(new Set(rows.map((x) => x.id)));
      for (const q of replayed) {
        expect(q.headers['webhook-id']).toBe(notificationId(Buffer.from(q.body)));
        expect(verify(SECRET, q.headers as Record<string, string>, Buffer.from(q.body), new Date())).toEqual({
          ok: true,
        });
      }
      const after = await runAssess(['callbacks', 'inbox', '--store', inbox, '--failed', '--json'], {
        configDir: cfg.dir,
      });
      expect(JSON.parse(after.stdout)).toEqual([]);

      // --no-sign overrides the recorded signing
      const unsigned = await runAssess(['callbacks', 'replay', '--store', inbox, '--no-sign', rows[0]!.invitationId], {
        configDir: cfg.dir,
      });
      expect(unsigned.code, unsigned.stderr).toBe(0);
      expect(app.requests.at(-1)!.headers['webhook-signature']).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});
