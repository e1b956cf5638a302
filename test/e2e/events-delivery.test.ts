// Callback delivery end to end: retries back to back (a receiver failing 3 times still gets the
// event; one always failing → 5 tries then failed), `callbacks process` re-delivers, a pending
// delivery survives a restart of a persisted sandbox, and `--sandbox` waits for its deliveries.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { startServer } from '../helpers/http-server.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { readState } from '../helpers/sandbox-state.js';
import { waitFor } from '../helpers/wait.js';

type Attempt = { n: number; at: string; url: string; status: number | null; error: string | null; durationMs: number };
type Delivery = {
  deliveryId: number;
  testInvitationId: number;
  event: string;
  state: string;
  reason: string;
  attempts: Attempt[];
  payload: Record<string, unknown>;
};

async function invite(ts: TestSandbox, email: string, callbackUrl: string): Promise<string> {
  const r = await runAssess(
    ['invite', '1001', '--email', email, '--name', 'Delivery Candidate', '--callback-url', callbackUrl, '--json'],
    { env: ts.env },
  );
  expect(r.code, r.stderr).toBe(0);
  return String(JSON.parse(r.stdout).testInvitationId);
}

async function simulate(ts: TestSandbox, id: string, to: string) {
  const r = await runAssess(['sandbox', 'simulate', id, to, '--url', ts.sb.baseUrl]);
  expect(r.code, r.stderr).toBe(0);
}

async function deliveries(ts: TestSandbox, id: string): Promise<Delivery[]> {
  const r = await runAssess(['sandbox', 'deliveries', '--invitation', id, '--url', ts.sb.baseUrl, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

const finished = (ts: TestSandbox, id: string, n: number) => async () => {
  const list = await deliveries(ts, id);
  return list.length === n && list.every((d) => d.state !== 'pending') ? list : null;
};

describe('delivery tries', () => {
  let ts: TestSandbox;
  beforeAll(async () => (ts = await startTestSandbox()));
  afterAll(() => ts.close());

  it('a receiver that fails 3 times then succeeds still gets the event: 4 tries, delivered', async () => {
    const server = await startServer((_req, res, n) => res.writeHead(n <= 3 ? 503 : 200).end());
    try {
      const id = await invite(ts, 'flaky@example.com', `${server.url}/hook`);
      await simulate(ts, id, 'start');
      const [d] = await waitFor(finished(ts, id, 1), { what: 'the delivery to finish' });
      expect(d.state).toBe('delivered');
      expect(d.attempts.map((a) => a.status)).toEqual([503, 503, 503, 200]);
      expect(d.attempts.map((a) => a.error)).toEqual(['HTTP 503', 'HTTP 503', 'HTTP 503', null]);
      expect(
        d.attempts.every((a) => a.url === `${server.url}/hook` && a.durationMs >= 0 && !Number.isNaN(Date.parse(a.at))),
      ).toBe(true);
      expect(server.requests).toHaveLength(4);
      expect(server.requests.map((r) => JSON.parse(r.body).Status)).toEqual(Array(4).fill('In Progress'));
      expect(server.requests[0]!.headers['content-type']).toMatch(/^application\/json/);
      const rows = await runAssess(['sandbox', 'deliveries', '--invitation', id, '--attempts', '--url', ts.sb.baseUrl]);
      expect(rows.stdout.trim().split('\n')).toHaveLength(4); // one TSV row per try
    } finally {
      await server.close();
    }
  });

  it('a receiver that always fails: 5 tries, then the delivery is failed', async () => {
    const server = await startServer((_req, res) => res.writeHead(500).end('nope'));
    try {
      const id = await invite(ts, 'down@example.com', `${server.url}/hook`);
      await simulate(ts, id, 'start');
      const [d] = await waitFor(finished(ts, id, 1), { what: 'the delivery to give up' });
      expect(d.state).toBe('failed');
      expect(d.attempts).toHaveLength(5);
      expect(server.requests).toHaveLength(5);
      const table = await runAssess(['sandbox', 'deliveries', '--invitation', id, '--url', ts.sb.baseUrl]);
      expect(table.stdout).toMatch(new RegExp(`${id}\\tIn Progress\\tfailed\\t5\\tHTTP 500`));
    } finally {
      await server.close();
    }
  });

  it('a redirect is not followed: it counts as a failed try', async () => {
    const server = await startServer((req, res) =>
      req.url === '/moved' ? res.writeHead(301, { location: '/elsewhere' }).end() : res.writeHead(200).end(),
    );
    try {
      const id = await invite(ts, 'moved@example.com', `${server.url}/moved`);
      await simulate(ts, id, 'start');
      const [d] = await waitFor(finished(ts, id, 1), { what: 'the delivery to give up' });
      expect(d.state).toBe('failed');
      expect(d.attempts[0]!.error).toMatch(/redirect not followed/);
      expect(server.requests.every((r) => r.url === '/moved')).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('callbacks process re-sends the latest notification of each invitation', async () => {
    const server = await startServer((_req, res) => res.writeHead(204).end());
    try {
      const id = await invite(ts, 'again@example.com', `${server.url}/hook`);
      await simulate(ts, id, 'complete');
      await waitFor(finished(ts, id, 2), { what: 'In Progress and Complete to be delivered' });
      const r = await runAssess(['callbacks', 'process', id], { env: ts.env });
      expect(r.code, r.stderr).toBe(0);
      const list = await waitFor(finished(ts, id, 3), { what: 'the re-sent notification' });
      expect(list.map((d) => [d.event, d.reason, d.state])).toEqual([
        ['In Progress', 'status-change', 'delivered'],
        ['Complete', 'status-change', 'delivered'],
        ['Complete', 'reprocess', 'delivered'],
      ]);
      expect(server.requests.map((q) => JSON.parse(q.body).Status)).toEqual(['In Progress', 'Complete', 'Complete']);
      expect(JSON.parse(server.requests[2]!.body)).toEqual(JSON.parse(server.requests[1]!.body));
    } finally {
      await server.close();
    }
  });
});

describe('persistence and the embedded sandbox', () => {
  it('a pending delivery survives a restart of a sandbox with a state file, and is delivered after it', async () => {
    const { dir, cleanup } = tempDir('assess-deliveries-');
    const stateFile = join(dir, 'state.db');
    const held: ServerResponse[] = [];
    let answer = false; // first the receiver hangs (the try is in flight when the sandbox stops)
    const server = await startServer((_req, res) => (answer ? res.writeHead(200).end() : held.push(res)));
    let ts = await startTestSandbox({ stateFile });
    try {
      const id = await invite(ts, 'restart@example.com', `${server.url}/hook`);
      await simulate(ts, id, 'start');
      await waitFor(() => held.length === 1, { what: 'the first try to reach the receiver' });
      await ts.close();
      const pending = readState(stateFile).deliveries.filter((d: Delivery) => String(d.testInvitationId) === id);
      expect(pending).toMatchObject([{ state: 'pending', attempts: [] }]); // the cut-short try is not counted

      answer = true;
      ts = await startTestSandbox({ stateFile });
      const [d] = await waitFor(finished(ts, id, 1), { what: 'the resumed delivery' });
      expect(d).toMatchObject({ state: 'delivered', event: 'In Progress' });
      expect(d.attempts).toHaveLength(1);
      expect(server.requests).toHaveLength(2);
      expect(server.requests[1]!.body).toBe(server.requests[0]!.body);
    } finally {
      await ts.close();
      await server.close();
      cleanup();
    }
  });

  it('assess --sandbox waits for the callbacks its command triggered before it exits', async () => {
    const { dir, cleanup } = tempDir('assess-embedded-');
    const server = await startServer((_req, res) => res.writeHead(200).end());
    try {
      const inv = await runAssess(
        [
          '--sandbox',
          'invite',
          '1001',
          '--email',
          'embedded@example.com',
          '--name',
          'E',
          '--callback-url',
          `${server.url}/hook`,
          '--json',
        ],
        { configDir: dir },
      );
      expect(inv.code, inv.stderr).toBe(0);
      const id = String(JSON.parse(inv.stdout).testInvitationId);
      const sim = await runAssess(['--sandbox', 'sandbox', 'simulate', id, 'complete'], { configDir: dir });
      expect(sim.code, sim.stderr).toBe(0);
      // no polling: the process only exits after the deliveries finished
      expect(server.requests.map((r) => JSON.parse(r.body).Status)).toEqual(['In Progress', 'Complete']);
      expect(existsSync(join(dir, 'sandbox', 'state.db'))).toBe(true);
      const list = await runAssess(['--sandbox', 'sandbox', 'deliveries', '--invitation', id, '--json'], {
        configDir: dir,
      });
      expect(JSON.parse(list.stdout).map((d: Delivery) => d.state)).toEqual(['delivered', 'delivered']);
    } finally {
      await server.close();
      cleanup();
    }
  });
});
