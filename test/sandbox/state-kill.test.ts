// kill -9 of a --state sandbox (its own process) at a moment derived from a seed, in the middle
// of a stream of writes from several clients: invites, moves, cancels. Afterwards the state on
// disk holds every change that was answered 2xx (an unanswered one may or may not be there),
// and a sandbox started on it goes on. For half the seeds a second sandbox process serves the
// same file meanwhile, to half of the clients: it keeps serving through the other's death, and
// what both answered is kept.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/sandbox/fault-spec.js';
import { ROOT } from '../helpers/cli.js';
import { readState } from '../helpers/sandbox-state.js';
import { harness } from './helpers.js';

const SEEDS = [1, 2, 3, 4];
const CLIENTS = 6;

let dir: string;
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'assess-state-kill-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Candidate {
  email: string;
  id?: number;
  /** The last status a 2xx answer confirmed (undefined: the invite itself was not answered). */
  acked?: string;
  /** The status asked for and not answered when the process died. */
  inFlight?: string;
}

function startChild(stateFile: string) {
  const args = ['--import', 'tsx', join(ROOT, 'test/helpers/state-child.ts'), stateFile];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const info = new Promise<{ baseUrl: string; key: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before it listened`)));
    child.stdout.once('data', (buf) => resolve(JSON.parse(String(buf))));
  });
  return { child, info };
}

/** One client: new candidates, and moves of its own ones, until a request fails (the kill). */
async function client(
  base: string,
  key: string,
  n: number,
  random: () => number,
  mine: Candidate[],
  acks: { count: number; stop: boolean },
) {
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`HTTP ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  for (let i = 0; !acks.stop; i++) {
    const movable = mine.filter((c) => c.acked === 'Pending' || c.acked === 'In Progress');
    const c: Candidate =
      movable.length && random() < 0.5
        ? movable[Math.floor(random() * movable.length)]!
        : { email: `k${n}-${i}@kill.test` };
    try {
      if (c.id === undefined) {
        mine.push(c);
        c.inFlight = 'Pending';
        c.id = (await post('/v3/tests/1001/invite', { email: c.email, name: `Kill ${n}` }, { 'x-api-key': key }))
          .testInvitationId as number;
      } else if (c.acked === 'Pending' && random() < 0.3) {
        c.inFlight = 'Cancelled';
        await post(`/v3/invitations/${c.id}/cancel`, {}, { 'x-api-key': key });
      } else {
        c.inFlight = c.acked === 'Pending' ? 'In Progress' : 'Complete';
        await post(`/_sandbox/invitations/${c.id}/simulate`, {
          to: c.acked === 'Pending' ? 'start' : 'complete',
          score: 50,
        });
      }
      c.acked = c.inFlight;
      c.inFlight = undefined;
      acks.count++;
    } catch {
      return; // killed: c.inFlight stays
    }
  }
}

describe('kill -9 during a stream of writes', () => {
  it.each(SEEDS)('seed %i: every answered change is on disk; a new sandbox goes on', async (seed) => {
    const random = seededRandom(seed);
    const killAfter = 20 + Math.floor(random() * 400); // answered changes before the kill
    const extraMs = Math.floor(random() * 15);
    const file = join(dir, `kill-${seed}.db`);
    const { child, info } = startChild(file);
    const { baseUrl, key } = await info;
    const other = seed % 2 === 0 ? startChild(file) : undefined; // serves the same file, and survives
    const otherUrl = other ? (await other.info).baseUrl : baseUrl;
    const mine: Candidate[][] = Array.from({ length: CLIENTS }, () => []);
    const acks = { count: 0, stop: false };
    const exited = new Promise((r) => child.on('exit', r));
    const clients = mine.map((list, n) =>
      client(n % 2 ? otherUrl : baseUrl, key, n, seededRandom(seed * 100 + n), list, acks),
    );
    const killer = (async () => {
      while (acks.count < killAfter && child.exitCode === null) await new Promise((r) => setTimeout(r, 1));
      await new Promise((r) => setTimeout(r, extraMs));
      child.kill('SIGKILL');
      await exited;
      acks.stop = true; // the survivor's clients finish what they sent
    })();
    await Promise.all([killer, ...clients, exited]);
    expect(child.signalCode).toBe('SIGKILL');
    if (other) {
      expect(other.child.exitCode).toBeNull(); // it served on through the other's death
      const res = await fetch(`${otherUrl}/v3/tests`, { headers: { 'x-api-key': key } });
      expect(res.status).toBe(200);
      const stopped = new Promise((r) => other.child.once('exit', r));
      other.child.kill('SIGTERM');
      await stopped;
    }

    const doc = readState(file);
    const byId = new Map(doc.invitations.map((i) => [i.testInvitationId, i]));
    const answered = mine.flat().filter((c) => c.acked !== undefined);
    expect(answered.length).toBeGreaterThanOrEqual(Math.min(killAfter, 20));
    for (const c of answered) {
      const stored = byId.get(c.id!);
      expect(stored?.email, `invitation ${c.id} (${c.email})`).toBe(c.email);
      expect([c.acked, c.inFlight], `invitation ${c.id}: answered ${c.acked}`).toContain(stored!.status);
    }

    const h = await harness({ stateFile: file });
    try {
      const next = await h.inviteA(1001, `after-kill-${seed}@kill.test`);
      expect(next).toBeGreaterThan(Math.max(...answered.map((c) => c.id!)));
    } finally {
      await h.close();
    }
    expect(readState(file).invitations.length).toBe(doc.invitations.length + 1);
  });
});
