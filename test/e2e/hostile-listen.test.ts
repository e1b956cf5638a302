// Issue 15 item 4: `callbacks listen` with a forward target that never answers, or an --exec
// that never ends. The queue is bounded (count and bytes, flags) and drops with a counted
// warning; Ctrl-C stops while work is pending and says what was not forwarded; a second
// Ctrl-C stops at once.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

let hang: Server;
let hangUrl = '';
let forwarded = 0;
beforeAll(async () => {
  // accepts every request and never answers
  hang = createServer(() => void forwarded++);
  await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
  hangUrl = `http://127.0.0.1:${(hang.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  hang.closeAllConnections();
  await new Promise<void>((r) => hang.close(() => r()));
});

const body = (id: number) => ({
  CandidateEmailId: `c${id}@listen.example`,
  AttemptedOn: null,
  AttemptedOnUtc: null,
  TotalScore: 10,
  CandidateScore: 5,
  ReportPDFUrl: null,
  TestInvitationId: id,
  Status: 'Complete',
  PerformanceCategory: null,
  padding: 'x'.repeat(300),
});
const post = (url: string, id: number) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body(id)) });

describe('callbacks listen under a hanging target (item 4)', () => {
  it('--queue-max bounds the forward queue: drops counted; Ctrl-C stops and lists what was not forwarded', async () => {
    const l = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--forward-to', hangUrl, '--queue-max', '5']);
    const url = await l.firstLine();
    for (let i = 1; i <= 20; i++) expect((await post(url, i)).status).toBe(200);
    await waitFor(() => forwarded >= 1 && /15 dropped so far/.test(l.stderr()), { what: 'the drops' });
    const r = await l.stop('SIGINT');
    expect(r.signal).toBeNull(); // it ended by itself, not by the harness's SIGKILL
    expect(l.stderr()).toMatch(/forward queue full \(4 waiting, [\d.]+ KB\): dropped invitation 6 \(Complete\); 1 dropped so far/);
    expect(l.stderr()).toMatch(/5 notification\(s\) not forwarded: invitation 1 \(Complete\), invitation 2 \(Complete\), invitation 3 \(Complete\), invitation 4 \(Complete\), invitation 5 \(Complete\)/);
    expect(l.stderr()).toMatch(/15 notification\(s\) not forwarded: dropped while the queue was full/);
  });

  it('--queue-max-bytes bounds it by size', async () => {
    const l = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--forward-to', hangUrl, '--queue-max-bytes', '2KB']);
    const url = await l.firstLine();
    for (let i = 1; i <= 20; i++) await post(url, i);
    await waitFor(() => /dropped so far/.test(l.stderr()), { what: 'a drop' });
    const r = await l.stop('SIGINT');
    expect(r.signal).toBeNull();
    const waited = Number(/(\d+) notification\(s\) not forwarded: invitation/.exec(l.stderr())![1]);
    const dropped = Number(/(\d+) notification\(s\) not forwarded: dropped/.exec(l.stderr())![1]);
    expect(waited).toBeLessThan(10); // ~480-byte bodies, 2 KB
    expect(waited + dropped).toBe(20);
  });

  it('a hanging --exec: Ctrl-C ends it and says it was not run; bad sizes are refused', async () => {
    const l = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--exec', 'sleep 60']);
    const url = await l.firstLine();
    await post(url, 1);
    await post(url, 2);
    await waitFor(() => l.lines().length >= 3, { what: 'two notifications printed' });
    const r = await l.stop('SIGINT');
    expect(r.signal).toBeNull();
    expect(l.stderr()).toMatch(/2 notification\(s\) --exec not run: invitation 1 \(Complete\), invitation 2 \(Complete\)/);

    const bad = spawnAssess(['callbacks', 'listen', '--port', '0', '--queue-max-bytes', 'lots']);
    expect((await bad.done).code).toBe(2);
    expect(bad.stderr()).toMatch(/--queue-max-bytes/);
  });

  it('a second Ctrl-C stops at once (exit 130)', async () => {
    const l = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--exec', 'trap "" TERM; sleep 60']);
    const url = await l.firstLine();
    await post(url, 1);
    await waitFor(() => l.lines().length >= 2, { what: 'the notification printed' });
    l.child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 700)); // later than an echo of the first press
    const r = await l.stop('SIGINT');
    expect(r.code).toBe(130);
    expect(l.stderr()).toMatch(/interrupted again: stopping now/);
  });
});
