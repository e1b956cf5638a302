// attempts wait and callbacks reconcile against a sandbox in quirks mode (ids as strings, status
// casings and synonyms, envelopes, 201/204…), several seeds: the same exit codes and the same
// missing ids as against the plain sandbox.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { Inbox } from '../../src/commands/callbacks/shared/inbox.js';
import { tempDir } from '../helpers/cli.js';
import { startServer } from '../helpers/http-server.js';
import { memoryProcess } from '../helpers/memory-io.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

describe.each([1, 2, 3, 4, 5, 6])('quirks seed %i', (seed) => {
  let ts: TestSandbox;
  let sink: Awaited<ReturnType<typeof startServer>>;
  const t = tempDir();
  const ids: Record<string, string> = {};
  const run = async (...argv: string[]) => {
    const p = memoryProcess({ ...ts.env, ASSESS_CONFIG_DIR: t.dir, CI: 'true', NO_COLOR: '1' });
    const code = await runCli(argv, p);
    return { code, out: p.out(), err: p.err() };
  };

  beforeAll(async () => {
    ts = await startTestSandbox();
    sink = await startServer((_r, res) => res.writeHead(200).end());
    for (const [name, move] of [
      ['done', 'complete'],
      ['left', 'leave'],
      ['waiting', undefined],
      ['gone', 'cancel'],
    ] as const) {
      const r = await ts.service<{ testInvitationId: number }>('/v3/tests/1001/invite', {
        email: `${name}${seed}@example.com`,
        name: 'Quirk Candidate',
        callbackUrl: `${sink.url}/hook`,
      });
      ids[name] = String(r.testInvitationId);
      if (move && move !== 'cancel')
        await ts.control('POST', `/invitations/${r.testInvitationId}/simulate`, { to: move });
    }
    await ts.sb.idle(10_000);
    await ts.control('POST', '/quirks', { seed });
    expect((await run('attempts', 'cancel', ids.gone!, '--yes')).code).toBe(0);
  });
  afterAll(async () => {
    await ts.close();
    await sink.close();
    t.cleanup();
  });

  it('attempts wait: 0 reached, 1 cannot reach, 6 timeout, 4 unknown (the service answers 401 "not found")', async () => {
    expect((await run('attempts', 'wait', ids.done!, '--until', 'complete')).code).toBe(0);
    expect((await run('attempts', 'wait', ids.left!, '--until', 'complete')).code).toBe(1);
    expect((await run('attempts', 'wait', ids.left!, '--until', 'any-terminal')).code).toBe(0);
    expect((await run('attempts', 'wait', ids.gone!, '--until', 'started')).code).toBe(1);
    expect(
      (await run('attempts', 'wait', ids.waiting!, '--until', 'started', '--interval', '100ms', '--timeout', '300ms'))
        .code,
    ).toBe(6);
    const unknown = await run('attempts', 'wait', '987654321', '--until', 'complete');
    expect(unknown.code, unknown.err).toBe(4);
  });

  it('reconcile finds the completed attempt whose notification is not in the inbox', async () => {
    const inbox = join(t.dir, 'callbacks.db');
    const w = Inbox.open(inbox);
    for (const r of sink.requests) {
      const body = JSON.parse(r.body);
      if (String(body.TestInvitationId) === ids.left) continue; // this one was "lost"
      await w.addNotification({
        raw: Buffer.from(r.body),
        headers: r.headers as Record<string, string>,
        at: new Date(),
      });
    }
    w.close();
    const r = await run('callbacks', 'reconcile', '--from', '1d', '--to', 'now', '--store', inbox, '--all', '--json');
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).map((m: { testInvitationId: string }) => String(m.testInvitationId))).toEqual([ids.left]);
  });
});
