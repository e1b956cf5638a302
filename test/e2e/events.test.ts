// Completion events end to end with `assess callbacks listen` (the built binary): notifications
// from the sandbox arrive with the v3 fields and scores, --exec gets the JSON, the token keeps
// strangers out, malformed bodies are refused without stopping the listener, --forward-to never
// reaches the listener itself (refused at start, or 508 when it comes back another way).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deliveryLog, storedNotifications } from '../helpers/inbox-store.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess } from '../helpers/cli.js';
import { startServer } from '../helpers/http-server.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnAssess, type Spawned } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

let ts: TestSandbox;
beforeAll(async () => (ts = await startTestSandbox()));
afterAll(() => ts.close());

async function invite(email: string, callbackUrl: string, extra: string[] = []): Promise<string> {
  const r = await runAssess(
    [
      'invite',
      '1001',
      '--email',
      email,
      '--name',
      'Event Candidate',
      '--callback-url',
      callbackUrl,
      ...extra,
      '--json',
    ],
    {
      env: ts.env,
    },
  );
  expect(r.code, r.stderr).toBe(0);
  return String(JSON.parse(r.stdout).testInvitationId);
}

async function simulate(id: string, to: string, extra: string[] = []) {
  const r = await runAssess(['sandbox', 'simulate', id, to, '--url', ts.sb.baseUrl, ...extra, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return { view: JSON.parse(r.stdout) as Record<string, unknown>, stderr: r.stderr };
}

const events = (l: Spawned) =>
  l
    .lines()
    .slice(1)
    .map((s) => JSON.parse(s) as Record<string, unknown>);

describe('callbacks listen receives the sandbox notifications', () => {
  let listener: Spawned;
  let url: string;
  beforeAll(async () => {
    listener = spawnAssess(['callbacks', 'listen', '--port', '0', '--path', '/events', '--print-url']);
    url = await listener.firstLine();
  });
  afterAll(() => listener.stop());

  it('prints the URL to register first, then one JSON line per notification: In Progress, then Complete with scores', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/events$/);
    // stdout and stderr are separate pipes: the notice may arrive just after the URL
    await waitFor(() => listener.stderr().includes(`Listening for notifications on ${url}`), {
      what: 'the listening notice',
    });
    const id = await invite('listen.flow@example.com', url);
    const started = await simulate(id, 'start');
    expect(started.stderr).toMatch(/Callback 'In Progress' queued/);
    await waitFor(() => events(listener).some((e) => String(e.TestInvitationId) === id), {
      what: 'the In Progress notification',
    });
    const done = await simulate(id, 'complete', ['--score', '80']);
    const mine = () => events(listener).filter((e) => String(e.TestInvitationId) === id);
    await waitFor(() => mine().length === 2, { what: 'the Complete notification' });

    const [progress, complete] = mine();
    expect(Object.keys(progress)).toEqual([
      'CandidateEmailId',
      'AttemptedOn',
      'AttemptedOnUtc',
      'TotalScore',
      'CandidateScore',
      'ReportPDFUrl',
      'TestInvitationId',
      'Status',
      'PerformanceCategory',
    ]);
    // the production forms (vendor facts): TotalScore 0 while In Progress, AttemptedOn as
    // "09-Oct-2020 06:51 PM", AttemptedOnUtc without the Z
    expect(progress).toMatchObject({
      CandidateEmailId: 'listen.flow@example.com',
      Status: 'In Progress',
      ReportPDFUrl: null,
      TotalScore: 0,
      CandidateScore: 0,
      PerformanceCategory: null,
      TestInvitationId: Number(id),
    });
    expect(progress.AttemptedOn).toMatch(/^\d{2}-[A-Z][a-z]{2}-\d{4} \d{2}:\d{2} [AP]M$/);
    expect(progress.AttemptedOnUtc).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(complete).toMatchObject({
      CandidateEmailId: 'listen.flow@example.com',
      Status: 'Complete',
      TestInvitationId: Number(id),
      TotalScore: done.view.totalTestPoints,
      CandidateScore: done.view.candidatePoints,
      AttemptedOn: progress.AttemptedOn,
      AttemptedOnUtc: progress.AttemptedOnUtc,
      ReportPDFUrl: `${ts.sb.baseUrl}/v3/reports/${id}/pdf`,
    });
    expect(done.view.scorePercentage).toBe(80);
    expect(typeof complete.PerformanceCategory).toBe('string');
  });

  it('a notification that cannot be understood is stored all the same (200) with a line on stderr; the listener keeps running', async () => {
    const bad = await fetch(url, {
      method: 'POST',
      body: JSON.stringify({ TestInvitationId: 'abc', Status: 'Complete' }),
    });
    expect(bad.status).toBe(200);
    const notJson = await fetch(url, { method: 'POST', body: 'hello' });
    expect(notJson.status).toBe(200);
    // the lines come after the 200s
    await waitFor(
      () =>
        /that is not JSON: the body is not JSON/.test(listener.stderr()) &&
        /cannot be understood/.test(listener.stderr()),
      {
        what: 'the two lines on stderr',
      },
    );
    expect(listener.stderr()).toMatch(
      /stored a notification that cannot be understood \(TestInvitationId "abc" is not an id\); callbacks inbox lists it/,
    );
    expect(listener.stderr()).toMatch(/stored a request from .* that is not JSON: the body is not JSON/);
    const wrongPath = await fetch(url.replace('/events', '/other'), { method: 'POST', body: '{}' });
    expect(wrongPath.status).toBe(404);
    const ok = await fetch(url, {
      method: 'POST',
      body: JSON.stringify({
        CandidateEmailId: 'v2@example.com',
        AttemptedOn: '2025-01-01T10:00:00Z',
        TotalScore: 10,
        CandidateScore: 7,
        ReportPDFUrl: 'https://x.test/r.pdf',
        TestInvitationId: 42,
      }),
    });
    expect(ok.status).toBe(200); // a v2 body (no Status) is a valid notification too
    await waitFor(() => events(listener).some((e) => e.TestInvitationId === 42), { what: 'the v2 notification' });
  });

  it('stops cleanly on SIGINT with a summary on stderr', async () => {
    const extra = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url']);
    await extra.firstLine();
    const exit = await extra.stop('SIGINT');
    expect(exit.code).toBe(0);
    expect(extra.stderr()).toMatch(/Stopped; 0 notification\(s\) received/);
  });
});

describe('--forward-to', () => {
  it('a URL that is the listener itself is refused (exit 2) instead of forwarding each notification to itself forever', async () => {
    const port = await freePort();
    const r = await runAssess([
      'callbacks',
      'listen',
      '--port',
      String(port),
      '--forward-to',
      `http://localhost:${port}/hook`,
    ]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^error: --forward-to: http://localhost:${port}/hook is this listener itself`));
  });

  it('so is another address of this machine when bound to 0.0.0.0 (here 127.0.0.2, of the loopback range)', async () => {
    const port = await freePort();
    const r = await runAssess([
      'callbacks',
      'listen',
      '--host',
      '0.0.0.0',
      '--insecure-http',
      '--port',
      String(port),
      '--no-inbox',
      '--forward-to',
      `http://127.0.0.2:${port}/hook`,
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^error: --forward-to: http://127.0.0.2:${port}/hook is this listener itself`));
  });

  it('a notification that comes back through a relay is refused (508), not stored or forwarded again: one dead letter, no loop', async () => {
    let listenerUrl = '';
    // passes each request on to the listener, headers included, as a tunnel or a proxy does
    const relay = await startServer((req, res) => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k)),
      ) as Record<string, string>;
      fetch(listenerUrl, { method: 'POST', headers, body: req.body }).then(
        async (r) => res.writeHead(r.status).end(await r.text()),
        () => res.writeHead(502).end(),
      );
    });
    const dir = mkdtempSync(join(tmpdir(), 'assess-loop-'));
    const inbox = join(dir, 'callbacks.db');
    const l = spawnAssess([
      'callbacks',
      'listen',
      '--port',
      '0',
      '--print-url',
      '--store',
      inbox,
      '--forward-to',
      `${relay.url}/hook`,
    ]);
    try {
      listenerUrl = await l.firstLine();
      expect(
        (
          await fetch(listenerUrl, {
            method: 'POST',
            body: JSON.stringify({ TestInvitationId: 900001, Status: 'Complete' }),
          })
        ).status,
      ).toBe(200);
      await waitFor(() => /could not forward invitation 900001 \(Complete\)/.test(l.stderr()), {
        what: 'the forward refused as a loop',
      });
      expect(l.stderr()).toMatch(/refused POST \/hook from [^:]+: 508 loop detected/);
      expect(l.stderr()).toMatch(/\(1 tries\): HTTP 508 Loop Detected/); // final, not retried
      expect((await l.stop('SIGINT')).code).toBe(0);
      expect(relay.requests).toHaveLength(1);
      expect(relay.requests[0]!.headers['assess-forwarded-by']).toMatch(/^[\w-]+$/);
      expect(l.lines()).toHaveLength(2); // the URL and the one notification
      expect(storedNotifications(inbox)).toHaveLength(1);
      expect(deliveryLog(inbox).map((r) => r.outcome)).toEqual(['dead-letter']);
    } finally {
      await l.stop();
      await relay.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const free = createServer();
  await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
  const port = (free.address() as { port: number }).port;
  await new Promise((r) => free.close(r));
  return port;
}

describe('--token', () => {
  it('only requests carrying ?token=T are accepted; wrong or missing token → 401', async () => {
    const l = spawnAssess(['callbacks', 'listen', '--port', '0', '--token', 's3cret-Token', '--print-url']);
    try {
      const url = await l.firstLine();
      expect(new URL(url).searchParams.get('token')).toBe('s3cret-Token');
      const bare = url.split('?')[0];
      expect((await fetch(bare, { method: 'POST', body: '{}' })).status).toBe(401);
      expect((await fetch(`${bare}?token=guess`, { method: 'POST', body: '{}' })).status).toBe(401);
      await waitFor(() => /wrong token/.test(l.stderr()), { what: 'the refusal on stderr' });
      expect(l.stderr()).toMatch(/missing \?token=/);
      const id = await invite('token.flow@example.com', url);
      await simulate(id, 'start');
      await waitFor(() => l.lines().length >= 2, { what: 'the notification through the token URL' });
      expect(JSON.parse(l.lines()[1]!)).toMatchObject({ TestInvitationId: Number(id), Status: 'In Progress' });
      expect(l.lines()).toHaveLength(2); // the refused requests printed nothing on stdout
    } finally {
      await l.stop();
    }
  });
});

describe('--exec and --forward-to', () => {
  it('runs the command with the JSON on stdin and ASSESS_EVENT_* variables, and forwards the body unchanged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'assess-exec-'));
    const script = join(dir, 'hook.mjs');
    // records what it got: stdin and the ASSESS_EVENT_* variables, one file per notification
    writeFileSync(
      script,
      [
        "import { writeFileSync, renameSync } from 'node:fs';",
        "let s = '';",
        "process.stdin.on('data', (d) => (s += d)).on('end', () => {",
        "  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('ASSESS_EVENT_')));",
        "  const name = `event-${env.ASSESS_EVENT_INVITATION_ID}-${env.ASSESS_EVENT_STATUS.replace(' ', '_')}.json`;",
        // written aside then renamed: the test reads a file as soon as it appears
        '  writeFileSync(`${process.argv[2]}/.${name}`, JSON.stringify({ stdin: s, env }));',
        '  renameSync(`${process.argv[2]}/.${name}`, `${process.argv[2]}/${name}`);',
        '});',
      ].join('\n'),
    );
    const forwarded: string[] = [];
    const target = await startServer((req, res) => {
      forwarded.push(req.body);
      res.writeHead(202).end();
    });
    const l = spawnAssess([
      'callbacks',
      'listen',
      '--port',
      '0',
      '--print-url',
      '--exec',
      `"${process.execPath}" "${script}" "${dir}"`,
      '--forward-to',
      `${target.url}/fwd`,
    ]);
    try {
      const url = await l.firstLine();
      const id = await invite('exec.flow@example.com', url);
      await simulate(id, 'complete', ['--score', '50']);
      const files = () =>
        readdirSync(dir)
          .filter((f) => f.startsWith(`event-${id}-`))
          .sort();
      await waitFor(() => files().length === 2, { what: 'two --exec runs' });
      const complete = JSON.parse(readFileSync(join(dir, `event-${id}-Complete.json`), 'utf8'));
      const body = JSON.parse(complete.stdin);
      expect(body).toMatchObject({
        TestInvitationId: Number(id),
        Status: 'Complete',
        CandidateEmailId: 'exec.flow@example.com',
      });
      expect(complete.env).toMatchObject({
        ASSESS_EVENT_STATUS: 'Complete',
        ASSESS_EVENT_INVITATION_ID: id,
        ASSESS_EVENT_EMAIL: 'exec.flow@example.com',
        ASSESS_EVENT_CANDIDATE_SCORE: String(body.CandidateScore),
        ASSESS_EVENT_TOTAL_SCORE: String(body.TotalScore),
        ASSESS_EVENT_REPORT_URL: body.ReportPDFUrl,
        ASSESS_EVENT_VERSION: 'v3',
      });
      // longer than one forward try's timeout (10 s) and its backoff: a try lost on a loaded machine is retried
      await waitFor(() => forwarded.length === 2, { what: 'two forwards', timeoutMs: 40_000 }).catch((err: Error) => {
        throw new Error(`${err.message} (got ${forwarded.length}); the listener said:\n${l.stderr()}`);
      });
      expect(forwarded.map((b) => JSON.parse(b).Status)).toEqual(['In Progress', 'Complete']);
      expect(forwarded[1]).toBe(complete.stdin); // byte for byte what the listener received
      await waitFor(() => (l.stderr().match(/forwarded invitation .*: HTTP 202/g) ?? []).length === 2, {
        what: 'forward reports on stderr',
      });
      expect(
        l
          .lines()
          .slice(1)
          .map((s) => JSON.parse(s).Status),
      ).toEqual(['In Progress', 'Complete']); // exec output stays off stdout
    } finally {
      await l.stop();
      await target.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
