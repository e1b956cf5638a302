// kill -9 of a --state sandbox (its own process) at a moment derived from a seed, in the middle
// of a stream of writes from several clients: invites, moves, cancels. Afterwards the state on
// disk holds every change that was answered 2xx (an unanswered one may or may not be there),
// and a sandbox started on it takes the stale lock over and goes on. Half the seeds compact on
// every chance (a snapshot whenever the log is as large as the last one), so kills land during
// snapshots too.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/sandbox/fault-spec.js';
import { loadStateFile } from '../../src/sandbox/persistence.js';
import { ROOT } from '../helpers/cli.js';
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

function startChild(stateFile: string, compactAfterBytes: number | undefined) {
  const args = [
    '--import',
    'tsx',
    join(ROOT, 'test/helpers/state-child.ts'),
    stateFile,
    ...(compactAfterBytes ? [String(compactAfterBytes)] : []),
  ];
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
  acks: { count: number },
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
  for (let i = 0; ; i++) {
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
  it.each(SEEDS)('seed %i: every answered change is on disk; a new sandbox takes over', async (seed) => {
    const random = seededRandom(seed);
    const killAfter = 20 + Math.floor(random() * 400); // answered changes before the kill
    const extraMs = Math.floor(random() * 15);
    const compact = seed % 2 === 0 ? 1 : undefined;
    const file = join(dir, `kill-${seed}.json`);
    const { child, info } = startChild(file, compact);
    const { baseUrl, key } = await info;
    const mine: Candidate[][] = Array.from({ length: CLIENTS }, () => []);
    const acks = { count: 0 };
    const exited = new Promise((r) => child.on('exit', r));
    const clients = mine.map((list, n) => client(baseUrl, key, n, seededRandom(seed * 100 + n), list, acks));
    const killer = (async () => {
      while (acks.count < killAfter && child.exitCode === null) await new Promise((r) => setTimeout(r, 1));
      await new Promise((r) => setTimeout(r, extraMs));
      child.kill('SIGKILL');
    })();
    await Promise.all([killer, ...clients, exited]);
    expect(child.signalCode).toBe('SIGKILL');

    const doc = (await loadStateFile(file))!.doc;
    const byId = new Map(doc.invitations.map((i) => [i.testInvitationId, i]));
    const answered = mine.flat().filter((c) => c.acked !== undefined);
    expect(answered.length).toBeGreaterThanOrEqual(Math.min(killAfter, 20));
    for (const c of answered) {
      const stored = byId.get(c.id!);
      expect(stored?.email, `invitation ${c.id} (${c.email})`).toBe(c.email);
      expect([c.acked, c.inFlight], `invitation ${c.id}: answered ${c.acked}`).toContain(stored!.status);
    }

    const h = await harness({ stateFile: file }); // the dead process's lock is stale
    try {
      const next = await h.inviteA(1001, `after-kill-${seed}@kill.test`);
      expect(next).toBeGreaterThan(Math.max(...answered.map((c) => c.id!)));
    } finally {
      await h.close();
    }
    expect((await loadStateFile(file))!.doc.invitations.length).toBe(doc.invitations.length + 1);
  });
});
