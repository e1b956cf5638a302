// Callback delivery inside the sandbox (in process): the answer/URL rules, per-try timeout,
// order per invitation, the triggering request never waits, idle(), the ?invitation filter,
// and the bodies match the shared callback schema. Stakeholder recipients (pure).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CallbackV3 } from '../../src/api/schemas/callback.js';
import { describeAnswer, unsupportedUrl } from '../../src/sandbox/delivery.js';
import { startSandbox, type Delivery, type RunningSandbox } from '../../src/sandbox/index.js';
import { stakeholderRecipients } from '../../src/sandbox/outbox.js';
import { startServer } from '../helpers/http-server.js';
import { waitFor } from '../helpers/wait.js';

describe('delivery rules (pure)', () => {
  it('2xx is delivered; 3xx is a failed try that says the redirect was not followed; others fail', () => {
    expect(describeAnswer(200)).toBeNull();
    expect(describeAnswer(204)).toBeNull();
    expect(describeAnswer(302, '/next')).toBe('HTTP 302: redirect not followed (Location: /next)');
    expect(describeAnswer(404)).toBe('HTTP 404');
    expect(describeAnswer(503)).toBe('HTTP 503');
  });
  it('only http and https URLs are delivered', () => {
    expect(unsupportedUrl('http://127.0.0.1:1/x')).toBeNull();
    expect(unsupportedUrl('https://example.com/hook?token=a')).toBeNull();
    expect(unsupportedUrl('ftp://example.com/x')).toMatch(/unsupported URL scheme 'ftp:'/);
    expect(unsupportedUrl('file:///etc/passwd')).toMatch(/unsupported URL scheme 'file:'/);
    expect(unsupportedUrl('not a url')).toMatch(/not a valid URL/);
  });
  it('stakeholder recipients: own list (trimmed, de-duplicated), disable → none, none → the owner', () => {
    expect(stakeholderRecipients(' a@x.co , b@y.co,a@x.co', 'owner@x.co')).toEqual(['a@x.co', 'b@y.co']);
    expect(stakeholderRecipients('disable', 'owner@x.co')).toEqual([]);
    expect(stakeholderRecipients('DISABLE', 'owner@x.co')).toEqual([]);
    expect(stakeholderRecipients(null, 'owner@x.co')).toEqual(['owner@x.co']);
    expect(stakeholderRecipients('', 'owner@x.co')).toEqual(['owner@x.co']);
  });
});

describe('delivery in a running sandbox', () => {
  let sb: RunningSandbox;
  const held: ServerResponse[] = [];
  let receiver: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, delivery: { timeoutMs: 300, maxAttempts: 2 } });
    receiver = await startServer((req, res) => {
      if (req.url === '/hang') return void held.push(res); // answered by the test, or never
      // slow, yet far inside the 300 ms per-try timeout: a loaded machine must not turn it into a retry
      if (req.url === '/slow-first' && JSON.parse(req.body).Status === 'In Progress')
        return void setTimeout(() => res.writeHead(200).end(), 50);
      res.writeHead(200).end();
    });
  });
  afterAll(async () => {
    await sb.close();
    await receiver.close();
  });

  const call = async (method: string, path: string, body?: unknown, control = false) => {
    const res = await fetch(`${sb.baseUrl}${control ? '/_sandbox' : ''}${path}`, {
      method,
      headers: { 'X-API-KEY': sb.keys[0]!, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const invite = async (email: string, callbackUrl: string) =>
    (await call('POST', '/v3/tests/1001/invite', { email, name: 'D', callbackUrl })).body.testInvitationId as number;
  const move = (id: number, to: string) => call('POST', `/invitations/${id}/simulate`, { to }, true);
  const deliveriesOf = async (id: number) =>
    (await call('GET', `/deliveries?invitation=${id}`, undefined, true)).body.deliveries as Delivery[];
  const settled = (id: number, n: number) => async () => {
    const list = await deliveriesOf(id);
    return list.length === n && list.every((d) => d.state !== 'pending') ? list : null;
  };

  it('the simulate request answers while its delivery is still in flight; idle() waits for it', async () => {
    // Its own sandbox with a long per-try timeout: with the suite's 300 ms, a loaded machine can
    // time the held try out before the test answers it.
    const patient = await startSandbox({ port: 0, delivery: { timeoutMs: 60_000, maxAttempts: 1 } });
    const main = sb;
    sb = patient;
    try {
      const id = await invite('hang@example.com', `${receiver.url}/hang`);
      const r = await move(id, 'start');
      expect(r.status).toBe(200);
      expect(r.body.callbacks).toEqual([
        { deliveryId: expect.any(Number), event: 'In Progress', url: `${receiver.url}/hang` },
      ]);
      await waitFor(() => held.length === 1, { what: 'the try to reach the receiver' });
      expect((await deliveriesOf(id))[0]).toMatchObject({ state: 'pending', attempts: [] });
      expect(await sb.idle(20)).toBe(false);
      expect(sb.deliveriesInFlight()).toBeGreaterThan(0);
      held.shift()!.writeHead(200).end();
      expect(await sb.idle(10_000)).toBe(true);
      expect((await deliveriesOf(id))[0]).toMatchObject({
        state: 'delivered',
        attempts: [{ n: 1, status: 200, error: null }],
      });
    } finally {
      sb = main;
      await patient.close();
    }
  });

  it("idle(ms, true) waits for this run's deliveries only, not those resumed from the state file", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'assess-deliveries-'));
    const stateFile = join(dir, 'state.json');
    const patient = { port: 0, stateFile, delivery: { timeoutMs: 60_000, maxAttempts: 1 } };
    const main = sb;
    try {
      sb = await startSandbox(patient);
      const earlier = await invite('earlier@example.com', `${receiver.url}/hang`);
      await move(earlier, 'start');
      await waitFor(() => held.length === 1, { what: 'the try to reach the receiver' });
      await sb.close(); // the try is cut short: its delivery stays pending in the state
      held.shift()!.destroy();
      sb = await startSandbox(patient); // resumes it: the receiver holds it again
      await waitFor(() => held.length === 1, { what: 'the resumed try' });
      expect(sb.deliveriesInFlight()).toBe(1);
      expect(sb.deliveriesInFlight(true)).toBe(0);
      expect(await sb.idle(10_000, true)).toBe(true);
      const now = await invite('now@example.com', `${receiver.url}/ok`);
      await move(now, 'start');
      expect(await sb.idle(10_000, true)).toBe(true); // delivered, while the resumed one still hangs
      expect((await deliveriesOf(now))[0]).toMatchObject({ state: 'delivered' });
      expect((await deliveriesOf(earlier))[0]).toMatchObject({ state: 'pending' });
      expect(await sb.idle(20)).toBe(false);
      held.shift()!.writeHead(200).end();
      expect(await sb.idle(10_000)).toBe(true);
    } finally {
      await sb.close();
      sb = main;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a try that gets no answer within the timeout fails with "timed out"; maxAttempts tries in all', async () => {
    const id = await invite('timeout@example.com', `${receiver.url}/hang`);
    await move(id, 'start');
    const [d] = await waitFor(settled(id, 1), { what: 'the delivery to give up' });
    expect(d.state).toBe('failed');
    expect(d.attempts.map((a) => [a.n, a.status, a.error])).toEqual([
      [1, null, 'timed out after 300 ms'],
      [2, null, 'timed out after 300 ms'],
    ]);
  });

  it('an unsupported scheme fails at once without trying (one recorded attempt saying why)', async () => {
    const id = await invite('ftp@example.com', 'ftp://127.0.0.1/cb');
    await move(id, 'start');
    const [d] = await waitFor(settled(id, 1), { what: 'the delivery to fail' });
    expect(d.state).toBe('failed');
    expect(d.attempts).toEqual([
      expect.objectContaining({ n: 1, status: null, error: expect.stringMatching(/unsupported URL scheme/) }),
    ]);
  });

  it("one invitation's notifications go out in order, even when the first is slow", async () => {
    const id = await invite('order@example.com', `${receiver.url}/slow-first`);
    await move(id, 'complete'); // queues In Progress and Complete at once
    await waitFor(settled(id, 2), { what: 'both deliveries' });
    const mine = receiver.requests.filter((q) => q.url === '/slow-first').map((q) => JSON.parse(q.body).Status);
    // a loaded machine may retry the slow one (a try's timeout is 300 ms): its repeats still come first
    expect(mine.filter((s, i) => s !== mine[i - 1])).toEqual(['In Progress', 'Complete']);
  });

  it('every body the sandbox sends matches the shared v3 callback schema; ?invitation filters', async () => {
    const all = (await call('GET', '/deliveries', undefined, true)).body.deliveries as Delivery[];
    expect(all.length).toBe(4); // the tests above: one timed out, one ftp, two in order
    for (const d of all) expect(CallbackV3.safeParse(d.payload).success).toBe(true);
    const id = all[0]!.testInvitationId;
    expect((await deliveriesOf(id)).every((d) => d.testInvitationId === id)).toBe(true);
    expect((await deliveriesOf(id)).length).toBeLessThan(all.length);
  });
});
