// `attempts wait` in process against an in-process sandbox: each exit code (0 reached, 4 unknown
// id, 6 timeout, 1 cannot reach the target / --exit-status), changes on stderr, the target table;
// against a fake service: polling on through transient failures until --timeout.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { verdict } from '../../src/commands/attempts/shared/wait-target.js';
import { safeText } from '../../src/commands/shared/statuses.js';
import { tempDir } from '../helpers/cli.js';
import { json, startServer } from '../helpers/http-server.js';
import { memoryProcess } from '../helpers/memory-io.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait.js';

let ts: TestSandbox;
const cleanups: Array<() => void> = [];
beforeAll(async () => (ts = await startTestSandbox()));
afterAll(() => ts.close());
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function start(argv: string[]) {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const p = memoryProcess({ ...ts.env, ASSESS_CONFIG_DIR: t.dir, CI: 'true', NO_COLOR: '1' });
  return { p, done: runCli(argv, p).then((code) => ({ code, out: p.out(), err: p.err() })) };
}
const run = (argv: string[]) => start(argv).done;

let n = 0;
async function invitation(move?: string): Promise<string> {
  const r = await ts.service<{ testInvitationId: number }>('/v3/tests/1001/invite', {
    email: `wait${++n}@example.com`,
    name: 'Wait Candidate',
  });
  const id = String(r.testInvitationId);
  if (move) await ts.control('POST', `/invitations/${id}/simulate`, { to: move });
  return id;
}

describe('service text on stderr', () => {
  it('control characters are shown escaped', () => {
    expect(safeText('Complete\u001b[2J\n')).toBe('Complete\\u001b[2J\\u000a');
    expect(safeText('Test Left')).toBe('Test Left');
  });
});

describe('the target table', () => {
  it('complete / any-terminal / started, statuses compared without case (Completed = Complete)', () => {
    expect(
      ['Pending', 'In Progress', 'Complete', 'COMPLETED', 'Test Left', 'Terminated', 'Cancelled', 'Expired'].map((s) =>
        verdict(s, 'complete'),
      ),
    ).toEqual(['waiting', 'waiting', 'reached', 'reached', 'unreachable', 'unreachable', 'unreachable', 'unreachable']);
    expect(
      ['Pending', 'in progress', 'Test Left', 'Cancelled', 'expired'].map((s) => verdict(s, 'any-terminal')),
    ).toEqual(['waiting', 'waiting', 'reached', 'reached', 'reached']);
    expect(['Pending', 'In Progress', 'Terminated', 'Cancelled', 'Expired'].map((s) => verdict(s, 'started'))).toEqual([
      'waiting',
      'reached',
      'reached',
      'unreachable',
      'unreachable',
    ]);
  });
});

describe('attempts wait', () => {
  it('exit 0 when reached; the final status on stdout (JSON), the first status on stderr', async () => {
    const id = await invitation('complete');
    const r = await run(['attempts', 'wait', id, '--until', 'complete', '--json']);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual([{ testInvitationId: Number(id), status: 'Complete', outcome: 'reached' }]);
    expect(r.err).toContain(`${id}: Complete`);
  });

  it('follows changes while polling and prints each on stderr', async () => {
    const id = await invitation();
    const waiting = start(['attempts', 'wait', id, '--until', 'complete', '--interval', '100ms', '--timeout', '20s']);
    await waitFor(() => waiting.p.err().includes(`${id}: Pending`));
    await ts.control('POST', `/invitations/${id}/simulate`, { to: 'start' });
    await waitFor(() => waiting.p.err().includes('→ In Progress'));
    await ts.control('POST', `/invitations/${id}/simulate`, { to: 'complete' });
    const r = await waiting.done;
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`${id}: Pending → In Progress`);
    expect(r.err).toContain(`${id}: In Progress → Complete`);
  });

  it('an unknown id is the service\'s 401 "not found": exit 4 as on every command, with the "check the id" hint', async () => {
    const r = await run(['attempts', 'wait', '987654321', '--until', 'started']);
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/987654321/);
    expect(r.err).toMatch(/check the id/);
  });

  it('exit 6 on timeout, naming the status it was still in', async () => {
    const id = await invitation();
    const r = await run([
      'attempts',
      'wait',
      id,
      '--until',
      'started',
      '--interval',
      '100ms',
      '--timeout',
      '300ms',
      '--json',
    ]);
    expect(r.code).toBe(6);
    expect(r.err).toMatch(new RegExp(`timed out after 300ms: ${id} is Pending`));
    expect(JSON.parse(r.out)[0].outcome).toBe('timed out');
  });

  it('exit 1 when it ended where the target cannot be reached (Cancelled, Test Left for complete, Expired for started)', async () => {
    const cancelled = await invitation();
    expect((await run(['attempts', 'cancel', cancelled, '--yes'])).code).toBe(0);
    const left = await invitation('leave');
    const expired = await invitation('expire');
    const r = await run(['attempts', 'wait', cancelled, left, '--until', 'complete']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(new RegExp(`${cancelled} ended Cancelled, ${left} ended Test Left: cannot reach complete`));
    expect((await run(['attempts', 'wait', expired, '--until', 'started'])).code).toBe(1);
  });

  it('any-terminal is reached by Test Left; --exit-status then fails it (as gh run watch --exit-status)', async () => {
    const left = await invitation('leave');
    expect((await run(['attempts', 'wait', left, '--until', 'any-terminal'])).code).toBe(0);
    const strict = await run(['attempts', 'wait', left, '--until', 'any-terminal', '--exit-status', '--json']);
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.out)[0]).toMatchObject({ status: 'Test Left', outcome: 'failed' });
  });

  it('bad flags are usage errors (exit 2) before anything is sent', async () => {
    expect((await run(['attempts', 'wait', '5001', '--until', 'done'])).err).toMatch(
      /--until: must be one of complete, any-terminal, started/,
    );
    expect((await run(['attempts', 'wait', '5001', '--interval', 'soon'])).code).toBe(2);
    expect((await run(['attempts', 'wait', '--until', 'complete'])).code).toBe(2);
    expect((await run(['attempts', 'wait', 'abc'])).code).toBe(2);
  });
});

describe('attempts wait through failing polls', () => {
  let srv: Awaited<ReturnType<typeof startServer>>;
  /** How the fake service answers the nth report request. */
  let answer: (n: number) => { status: number; body: unknown };
  beforeAll(async () => {
    srv = await startServer((_req, res, n) => {
      const a = answer(n);
      json(res, a.status, a.body);
    });
  });
  afterAll(() => srv?.close());
  /** `retries` (attempts per request) 1 makes each poll one request. */
  async function runAgainst(baseUrl: string, argv: string[], retries?: number) {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const env = {
      ASSESS_API_KEY: ts.env.ASSESS_API_KEY!,
      ASSESS_BASE_URL: baseUrl,
      ASSESS_CONFIG_DIR: t.dir,
      CI: 'true',
      NO_COLOR: '1',
    };
    if (retries !== undefined)
      expect(await runCli(['config', 'set', 'retries', String(retries)], memoryProcess(env))).toBe(0);
    const p = memoryProcess(env);
    return runCli(argv, p).then((code) => ({ code, out: p.out(), err: p.err() }));
  }
  const unavailable = { status: 503, body: { message: 'Service Unavailable' } };

  it("keeps polling through 5xx answers (more than one request's retries) and exits 0 when it is reached", async () => {
    const before = srv.requests.length;
    answer = (n) =>
      n - before <= 5 ? unavailable : { status: 200, body: { testInvitationId: 900001, status: 'Complete' } };
    const r = await runAgainst(srv.url, [
      'attempts',
      'wait',
      '900001',
      '--until',
      'complete',
      '--interval',
      '100ms',
      '--timeout',
      '1m',
      '--json',
    ]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual([{ testInvitationId: 900001, status: 'Complete', outcome: 'reached' }]);
    expect(r.err).toMatch(
      /polling failed \(GET \/v3\/reports\/900001 → HTTP 503: Service Unavailable\); trying again in 100ms until the --timeout/,
    );
    expect(srv.requests.length - before).toBe(6);
  });

  it('still failing at its --timeout: exit 6 naming the last error', async () => {
    const before = srv.requests.length;
    answer = () => unavailable;
    const r = await runAgainst(
      srv.url,
      ['attempts', 'wait', '900001', '--interval', '100ms', '--timeout', '1500ms', '--json'],
      1,
    );
    expect(r.code, r.err).toBe(6);
    expect(r.err).toMatch(
      /timed out after 1500ms: 900001 never read; the last poll failed: GET \/v3\/reports\/900001 → HTTP 503: Service Unavailable/,
    );
    expect(JSON.parse(r.out)).toEqual([{ testInvitationId: 900001, status: null, outcome: 'timed out' }]);
    // one request per poll: polled again and again, not given up after the first
    expect(srv.requests.length - before).toBeGreaterThan(2);
  });

  it('connection refused until the --timeout: exit 6 naming it', async () => {
    const gone = await startServer(() => undefined);
    await gone.close();
    const r = await runAgainst(gone.url, ['attempts', 'wait', '900001', '--interval', '100ms', '--timeout', '1s']);
    expect(r.code, r.err).toBe(6);
    expect(r.err).toMatch(/timed out after 1s: 900001 never read; the last poll failed: GET .*failed \(ECONNREFUSED\)/);
  });

  it('a refused key (401) stops at once: exit 3 after one request', async () => {
    const before = srv.requests.length;
    answer = () => ({
      status: 401,
      body: { statusCode: 401, message: 'Access denied due to invalid subscription key.' },
    });
    const r = await runAgainst(srv.url, ['attempts', 'wait', '900001', '--interval', '100ms', '--timeout', '1m']);
    expect(r.code, r.err).toBe(3);
    expect(srv.requests.length - before).toBe(1);
  });
});
