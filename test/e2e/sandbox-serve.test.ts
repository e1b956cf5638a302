// `assess sandbox serve` as a process: the one-line JSON handshake, plain HTTP against it, the
// sandbox commands driving it by --url, a clean stop on SIGINT/SIGTERM, persistence across a
// restart, and a corrupt state file refused without being overwritten.
import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { spawnAssess } from '../helpers/spawn.js';

const work = tempDir('assess-serve-');
afterAll(() => work.cleanup());
const stateFile = join(work.dir, 'sandbox.db');

async function serve() {
  const p = spawnAssess(['sandbox', 'serve', '--port', '0', '--json', '--state', stateFile]);
  const info = JSON.parse(await p.firstLine()) as { baseUrl: string; baseUrlV2: string; keys: string[] };
  return { p, info };
}

describe('assess sandbox serve', () => {
  let invitationId = 0;

  it('prints exactly one JSON line with the base URLs and the seed keys, and serves plain HTTP', async () => {
    const { p, info } = await serve();
    try {
      expect(Object.keys(info).sort()).toEqual(['baseUrl', 'baseUrlV2', 'keys']);
      expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(info.keys).toHaveLength(2);
      const res = await fetch(`${info.baseUrl}/v3/tests/1001/invite`, {
        method: 'POST',
        headers: { 'X-API-KEY': info.keys[0]!, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'persist@example.com', name: 'Per Sist' }),
      });
      expect(res.status).toBe(200);
      invitationId = ((await res.json()) as { testInvitationId: number }).testInvitationId;
      const refused = await fetch(`${info.baseUrl}/v3/tests`, { headers: { 'X-API-KEY': 'sk_not_a_key' } });
      expect(refused.status).toBeGreaterThanOrEqual(400);
    } finally {
      expect((await p.stop('SIGINT')).code).toBe(0);
    }
    expect(p.stderr()).toMatch(/state saved/);
    expect(p.lines()).toHaveLength(1);
  });

  it('keeps state across a restart, and the sandbox commands drive it by --url', async () => {
    const { p, info } = await serve();
    try {
      const url = ['--url', info.baseUrl];
      const env = { ASSESS_BASE_URL: info.baseUrl, ASSESS_API_KEY: info.keys[0]! };
      const start = await runAssess(['sandbox', 'simulate', String(invitationId), 'start', ...url, '--json']);
      expect(start.code).toBe(0);
      expect(JSON.parse(start.stdout)).toMatchObject({
        testInvitationId: invitationId,
        status: 'In Progress',
        email: 'persist@example.com',
      });
      const done = await runAssess([
        'sandbox',
        'simulate',
        String(invitationId),
        'complete',
        '--score',
        '70',
        ...url,
        '--json',
      ]);
      expect(JSON.parse(done.stdout)).toMatchObject({ status: 'Complete', scorePercentage: 70 });
      const report = await runAssess(['report', String(invitationId), '--json'], { env });
      expect(JSON.parse(report.stdout)).toMatchObject({ status: 'Complete', scorePercentage: 70 });
      const clock = await runAssess(['sandbox', 'clock', 'advance', '3d', ...url]);
      expect(clock.code).toBe(0);
      expect(Date.parse(clock.stdout.trim()) - Date.now()).toBeGreaterThan(2.9 * 86400e3);
      const requests = await runAssess(['sandbox', 'requests', '--json', ...url]);
      const paths = (JSON.parse(requests.stdout) as Array<{ path: string }>).map((r) => r.path);
      expect(paths).toContain(`/v3/reports/${invitationId}?reportType=1`);
      expect(requests.stdout).not.toContain(info.keys[0]!);
    } finally {
      expect((await p.stop('SIGTERM')).code).toBe(143); // 128 + SIGTERM
    }
  });

  it('sandbox reset needs --yes without a terminal, then goes back to the seed', async () => {
    const { p, info } = await serve();
    try {
      const refused = await runAssess(['sandbox', 'reset', '--url', info.baseUrl]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/--yes/);
      const before = await runAssess(['sandbox', 'simulate', String(invitationId), 'leave', '--url', info.baseUrl]);
      expect(before.code).toBe(1); // Complete cannot be left: the sandbox refuses the move
      expect((await runAssess(['sandbox', 'reset', '--yes', '--url', info.baseUrl])).code).toBe(0);
      const gone = await runAssess(['sandbox', 'simulate', String(invitationId), 'start', '--url', info.baseUrl]);
      expect(gone.code).toBe(4);
    } finally {
      await p.stop('SIGINT');
    }
  });

  it('refuses a file that is not its state with exit 2 (a bad file), says what to do, and leaves the file alone', async () => {
    const bad = join(work.dir, 'corrupt.db');
    // an earlier assess's JSON state (even truncated), text, another program's JSON
    for (const [text, cause, fix] of [
      [
        '{"format": "assess-sandbox-state", "accounts": [',
        'it is the state file of an earlier assess',
        /give --state a new file/,
      ],
      ['garbage\n', 'file is not a database', /move it away, or choose another file/],
      ['{"name": "not sandbox state"}', 'file is not a database', /move it away, or choose another file/],
    ] as const) {
      writeFileSync(bad, text);
      const r = await runAssess(['sandbox', 'serve', '--port', '0', '--state', bad]);
      expect(r.code, JSON.stringify(text)).toBe(2);
      expect(r.stderr).toContain(`cannot use the sandbox state ${bad}: ${cause}`);
      expect(r.stderr).toMatch(fix);
      expect(r.stdout).toBe('');
      expect(readFileSync(bad, 'utf8')).toBe(text);
    }
  });

  it('refuses a --state that is not a regular file (a FIFO, a device, a directory, a link to a FIFO): exit 2, no wait', async () => {
    const fifo = join(work.dir, 'state.fifo');
    execFileSync('mkfifo', [fifo]);
    const link = join(work.dir, 'state-link.json');
    symlinkSync(fifo, link);
    for (const [file, kind] of [
      [fifo, 'a FIFO'],
      [link, 'a FIFO'],
      ['/dev/zero', 'a character device'],
      [work.dir, 'a directory'],
    ]) {
      // a FIFO used to block the load until killed (SIGTERM ignored): a hang is killed here, code null
      const r = await runAssess(['sandbox', 'serve', '--port', '0', '--state', file!], { timeoutMs: 20_000 });
      expect(r.code, `${file}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toBe(
        `error: --state: ${file} is ${kind}, not a regular file\n  name a regular file (it is created if missing), ` +
          `e.g. --state ./sandbox.db\n`,
      );
      expect(r.stdout).toBe('');
    }
  });

  it('validates its flags before starting', async () => {
    for (const args of [
      ['--port', '70000'],
      ['--port', 'http'],
      ['--host', 'not a host'],
    ]) {
      const r = await runAssess(['sandbox', 'serve', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/--port|--host/);
    }
  });

  it('the control commands say clearly when no sandbox answers', async () => {
    const r = await runAssess(['sandbox', 'clock', '--url', 'http://127.0.0.1:9']);
    expect(r.code).toBe(6); // a network failure (GUIDE §2)
    expect(r.stderr).toMatch(/no sandbox answering at http:\/\/127\.0\.0\.1:9/);
    expect(r.stderr).toMatch(/sandbox serve/);
  });
});
