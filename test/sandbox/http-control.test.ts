// The control API's own contract: index, invitation listing, simulate errors, reset, and the
// options of startSandbox (logRequests, loopback guard).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SEED_KEYS, startSandbox } from '../../src/sandbox/index.js';
import { isLoopback } from '../../src/sandbox/routes/control.js';
import { harness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => (h = await harness()));
afterAll(() => h.close());

describe('control API', () => {
  it('GET /_sandbox/ shows the accounts and their keys', async () => {
    const r = await h.control('GET', '/');
    expect(r.status).toBe(200);
    expect(r.body.accounts.map((a: any) => [a.accountId, a.key])).toEqual([
      [1, SEED_KEYS[0]],
      [2, SEED_KEYS[1]],
    ]);
    expect(h.sb.keys).toEqual([...SEED_KEYS]);
    expect(h.sb.baseUrl).toBe(`http://127.0.0.1:${h.sb.port}`);
  });
  it('GET /_sandbox/invitations lists every account, filterable', async () => {
    const all = (await h.control('GET', '/invitations')).body.invitations;
    expect(new Set(all.map((i: any) => i.accountId))).toEqual(new Set([1, 2]));
    expect(all[0]).toMatchObject({
      testInvitationId: expect.any(Number),
      status: expect.any(String),
      testLinkId: expect.any(Number),
      email: expect.any(String),
    });
    const pending2 = (await h.control('GET', '/invitations?accountId=2&status=pending')).body.invitations;
    expect(pending2.map((i: any) => i.testInvitationId)).toEqual([900009]);
  });
  it('simulate: unknown invitation 404, bad target 400, score out of range 400', async () => {
    expect((await h.control('POST', '/invitations/42/simulate', { to: 'start' })).status).toBe(404);
    const badTo = await h.control('POST', '/invitations/900004/simulate', { to: 'finish' });
    expect(badTo.status).toBe(400);
    expect(badTo.body.errors[0]).toMatch(/start, complete, leave, terminate, expire/);
    expect((await h.control('POST', '/invitations/900004/simulate', { to: 'complete', score: 120 })).status).toBe(400);
  });
  it('simulate complete returns the invitation and its report', async () => {
    const r = await h.move(900004, 'complete', { score: 50 });
    expect(r.invitation.status).toBe('Complete');
    expect(r.report.scorePercentage).toBe(50);
  });
  it('simulate start before the access window opens → 409 telling to advance the clock', async () => {
    const inv = await h.api(
      'POST',
      '/v3/tests/2001/testlinks/5008/invite',
      { email: 'early@x.test', name: 'E' },
      h.keyB,
    );
    const r = await h.control('POST', `/invitations/${inv.body.testInvitationId}/simulate`, { to: 'start' });
    expect(r.status).toBe(409);
    expect(r.body.errors[0]).toMatch(/advance the sandbox clock/);
    await h.control('POST', '/clock', { advance: '3d' });
    expect(
      (await h.control('POST', `/invitations/${inv.body.testInvitationId}/simulate`, { to: 'start' })).status,
    ).toBe(200);
  });
  it('reset restores the seed', async () => {
    await h.control('POST', '/reset');
    expect((await h.control('GET', '/invitations/900004')).body.status).toBe('Pending');
    // back to real time (it was 3 days ahead), give or take how long this machine took to answer
    expect(Math.abs((await h.control('GET', '/clock')).body.offsetMs)).toBeLessThan(60_000);
  });
  it('only loopback addresses count as loopback', () => {
    expect(['127.0.0.1', '::1', '::ffff:127.0.0.1'].map(isLoopback)).toEqual([true, true, true]);
    expect(['10.0.0.2', '::ffff:192.168.1.4', undefined].map(isLoopback)).toEqual([false, false, false]);
  });
});

describe('startSandbox options', () => {
  it('logRequests prints one line per API request on stderr, without the key', async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => (lines.push(String(chunk)), true));
    const sb = await startSandbox({ port: 0, logRequests: true });
    try {
      await fetch(`${sb.baseUrl}/v3/tests`, { headers: { 'X-API-KEY': sb.keys[0] } });
      await fetch(`${sb.baseUrl}/_sandbox/clock`);
    } finally {
      await sb.close();
      spy.mockRestore();
    }
    const log = lines.join('');
    expect(log).toMatch(/GET \/v3\/tests → 200/);
    expect(log).not.toContain('_sandbox');
    expect(log).not.toContain(SEED_KEYS[0]);
  });
});
