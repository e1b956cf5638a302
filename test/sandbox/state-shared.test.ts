// Several sandboxes on one state file at once (two `sandbox serve`, a shared one and the embedded
// sandboxes of `--sandbox` commands): each sees the others' changes, the clock and the faults are
// one, ids never collide, a notification is delivered once, and a symlink or a relative path
// name the same state.
import { mkdtemp, rm } from 'node:fs/promises';
import { symlinkSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Delivery, type RunningSandbox } from '../../src/sandbox/index.js';
import { startServer } from '../helpers/http-server.js';
import { waitFor } from '../helpers/wait.js';
import { harness, type Harness } from './helpers.js';

let dir: string;
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'assess-state-shared-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('two sandboxes on one state file', () => {
  let a: Harness;
  let b: Harness;
  beforeAll(async () => {
    const file = join(dir, 'two.db');
    a = await harness({ stateFile: file });
    b = await harness({ stateFile: file });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it("each sees the other's changes at once: an invite, a move, a cancel", async () => {
    const id = await a.inviteA(1001, 'seen@shared.test');
    expect((await b.control('GET', `/invitations/${id}`)).body).toMatchObject({ status: 'Pending' });
    await b.move(id, 'start');
    expect((await a.api('GET', `/v3/reports/${id}`)).body).toMatchObject({ testInvitationId: id });
    expect((await a.control('GET', `/invitations/${id}`)).body.status).toBe('In Progress');
    const other = await b.inviteA(1001, 'cancel@shared.test');
    expect((await a.api('POST', `/v3/invitations/${other}/cancel`, {})).status).toBe(200);
    expect((await b.control('GET', `/invitations/${other}`)).body.status).toBe('Cancelled');
  });

  it('invites sent to both at once get distinct ids, and all of them are kept', async () => {
    const sent = Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).inviteA(1001, `many${i}@shared.test`));
    const ids = await Promise.all(sent);
    expect(new Set(ids).size).toBe(40);
    const kept = (await a.control('GET', '/invitations')).body.invitations.filter((i: any) =>
      i.email.endsWith('@shared.test'),
    );
    expect(kept.map((i: any) => i.testInvitationId)).toEqual(expect.arrayContaining(ids));
  });

  it('one clock: advanced through one, the other tells the same time and expires the same invitations', async () => {
    const id = await a.inviteA(1001, 'expires@shared.test'); // the default link: valid 7 days
    await b.control('POST', '/clock', { freeze: true, advance: '8d' });
    const [ca, cb] = [(await a.control('GET', '/clock')).body, (await b.control('GET', '/clock')).body];
    expect(ca.now).toBe(cb.now); // frozen: the same instant (offsetMs is that instant less the real time)
    expect([ca.frozen, cb.frozen]).toEqual([true, true]);
    expect((await a.control('GET', `/invitations/${id}`)).body.status).toBe('Expired');
    await a.control('POST', '/clock', { freeze: false, set: new Date().toISOString() });
  });

  it('one set of faults: set through one, the other injects them, drawing from the same seeded sequence', async () => {
    await a.control('POST', '/faults', { spec: '503=0.5,seed=7' });
    const view = (await b.control('GET', '/faults')).body;
    expect(view.spec).toMatch(/503=0\.5/);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await (i % 2 ? a : b).api('GET', '/v3/tests')).status);
    const counters = (await a.control('GET', '/faults')).body.counters;
    expect(counters.requests).toBe(10);
    expect(counters.total).toBe(statuses.filter((s) => s === 503).length);
    await b.control('DELETE', '/faults');
    expect((await a.control('GET', '/faults')).body.spec).toBeNull();
  });
});

describe('a notification is delivered once, whichever sandbox queued it', () => {
  it('the queuing sandbox claims it; the other, polling, never sends it too; a stopped one leaves it to the other', async () => {
    const file = join(dir, 'deliveries.db');
    const held: ServerResponse[] = [];
    const rx = await startServer((req, res) => (req.url === '/hold' ? void held.push(res) : res.writeHead(200).end()));
    const slow = { delivery: { timeoutMs: 60_000, maxAttempts: 1 } };
    let first: RunningSandbox | undefined = await startSandbox({ stateFile: file, ...slow });
    const second = await startSandbox({ stateFile: file, ...slow });
    const post = (sb: RunningSandbox, path: string, body: unknown) =>
      fetch(sb.baseUrl + path, {
        method: 'POST',
        headers: { 'x-api-key': sb.keys[0]!, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<any>);
    const deliveries = async (id: number) =>
      ((await (await fetch(`${second.baseUrl}/_sandbox/deliveries?invitation=${id}`)).json()) as any)
        .deliveries as Delivery[];
    try {
      const ok = (
        await post(first, '/v3/tests/1001/invite', { email: 'once@x.test', name: 'O', callbackUrl: `${rx.url}/ok` })
      ).testInvitationId as number;
      await post(first, `/_sandbox/invitations/${ok}/simulate`, { to: 'complete' });
      await waitFor(
        async () => (await deliveries(ok)).every((d) => d.state === 'delivered') && (await deliveries(ok)).length === 2,
        {
          what: 'both notifications delivered',
        },
      );
      // polls of both sandboxes have run meanwhile (every second): still one POST per notification
      await new Promise((r) => setTimeout(r, 1500));
      expect(rx.requests.filter((q) => JSON.parse(q.body).TestInvitationId === ok)).toHaveLength(2);

      const hold = (
        await post(first, '/v3/tests/1001/invite', { email: 'hold@x.test', name: 'H', callbackUrl: `${rx.url}/hold` })
      ).testInvitationId as number;
      await post(first, `/_sandbox/invitations/${hold}/simulate`, { to: 'start' });
      await waitFor(() => held.length === 1, { what: 'the first try to reach the receiver' });
      await first.close(); // cut short: its claim is released, the other takes the delivery over
      first = undefined;
      held.shift()!.destroy();
      await waitFor(() => held.length === 1, { what: 'the other sandbox to try it' });
      held.shift()!.writeHead(200).end();
      await waitFor(async () => (await deliveries(hold))[0]?.state === 'delivered', { what: 'the delivery' });
      expect((await deliveries(hold))[0]!.attempts).toHaveLength(1);
    } finally {
      await first?.close();
      await second.close();
      for (const r of held) r.destroy();
      await rx.close();
    }
  });
});

describe('one state, whatever its name', () => {
  it('a symlink and a relative path of a state file are that state', async () => {
    const file = join(dir, 'named.db');
    symlinkSync(file, join(dir, 'soft.db'));
    const real = await harness({ stateFile: file });
    const soft = await harness({ stateFile: join(dir, 'soft.db') });
    const rel = await harness({ stateFile: relative(process.cwd(), file) });
    try {
      const id = await soft.inviteA(1001, 'by.name@shared.test');
      expect((await real.control('GET', `/invitations/${id}`)).status).toBe(200);
      expect((await rel.control('GET', `/invitations/${id}`)).status).toBe(200);
    } finally {
      await Promise.all([real.close(), soft.close(), rel.close()]);
    }
  });
});
