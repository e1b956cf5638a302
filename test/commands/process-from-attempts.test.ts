// `callbacks process --from-attempts`: an attempt of the window that was created without a
// callback URL is "not registered" (the service answers "failed": nothing to notify), reported
// and not a failure — exit 0, as reconcile reads the same answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let ts: TestSandbox;
const ids: Record<string, string> = {};
beforeAll(async () => {
  ts = await startTestSandbox();
  for (const [name, cb] of [
    ['with', { callbackUrl: 'http://127.0.0.1:9/hook' }],
    ['without', {}],
  ] as const) {
    const r = await ts.service<{ testInvitationId: number }>('/v3/tests/1001/invite', {
      email: `${name}@example.com`,
      name: 'From Attempts',
      ...cb,
    });
    ids[name] = String(r.testInvitationId);
    await ts.control('POST', `/invitations/${r.testInvitationId}/simulate`, { to: 'complete' });
  }
});
afterAll(() => ts?.close());

describe('callbacks process --from-attempts', () => {
  it('reports an attempt without a callback URL as not registered, and exits 0', async () => {
    const r = await runInProcess(
      ['callbacks', 'process', '--from-attempts', '--state', 'completed', '--from', '1d', '--to', 'now', '--json'],
      { env: ts.env },
    );
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ testInvitationId: number; status: string }>;
    const by = new Map(rows.map((x) => [String(x.testInvitationId), x.status]));
    expect(by.get(ids.with!)).toBe('successful');
    expect(by.get(ids.without!)).toBe('not registered');
    expect(r.stderr).toMatch(/1 attempt\(s\) are not registered for a notification .*That is not a failure\./);
    expect(r.stderr).toMatch(/1 of 2 invitations queued for callback reprocessing, 1 not registered, 0 failed/);
  });

  it('named ids stay strict: the same answer for an id given by hand is a failure (exit 5)', async () => {
    const r = await runInProcess(['callbacks', 'process', ids.without!], { env: ts.env });
    expect(r.code).toBe(5);
  });
});
