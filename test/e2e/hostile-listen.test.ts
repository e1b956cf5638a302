// `callbacks listen` with a forward target that never answers, or an --exec
// that never ends. The queue is bounded (count and bytes, flags) and drops with a counted
// warning; Ctrl-C stops while work is pending and says what was not forwarded; a second
// Ctrl-C stops at once. Stopping ends everything a running --exec started (its process group),
// not only its shell. A body whose values no environment can hold still runs --exec.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { ctrlCTwice, spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';
import { completionBody } from '../helpers/completion-body.js';

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

const body = (id: number) => completionBody(id, undefined, { padding: 'x'.repeat(300) });
const post = (url: string, id: number) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body(id)) });

describe('callbacks listen under a hanging target: bounded queues, drops counted, Ctrl-C stops', () => {
  it('--forward-queue bounds the forward queue; Ctrl-C stops (not killed) and names what was not forwarded', async () => {
    const cfg = tempDir();
    const l = spawnAssess(
      [
        'callbacks',
        'listen',
        '--port',
        '0',
        '--print-url',
        '--no-inbox',
        '--forward-to',
        hangUrl,
        '--forward-queue',
        '5',
      ],
      {
        configDir: cfg.dir,
      },
    );
    const url = await l.firstLine();
    for (let i = 1; i <= 20; i++) expect((await post(url, i)).status).toBe(200);
    await waitFor(() => forwarded >= 1 && /queue full/.test(l.stderr()), { what: 'the overflow' });
    const r = await l.stop('SIGINT');
    expect(r.signal).toBeNull(); // it ended by itself, not by the harness's SIGKILL (15 s)
    expect(r.code).toBe(0);
    for (let i = 1; i <= 6; i++)
      expect(l.stderr()).toMatch(new RegExp(`could not forward invitation ${i} \\(Complete\\)`));
    cfg.cleanup();
  });

  it('--forward-queue-bytes bounds it by size; the warnings count the drops; all 20 are accounted for', async () => {
    const l = spawnAssess([
      'callbacks',
      'listen',
      '--port',
      '0',
      '--print-url',
      '--no-inbox',
      '--forward-to',
      hangUrl,
      '--forward-queue-bytes',
      '2KB',
    ]);
    const url = await l.firstLine();
    for (let i = 1; i <= 20; i++) await post(url, i);
    await waitFor(() => /dropped so far/.test(l.stderr()), { what: 'a drop' });
    const r = await l.stop('SIGINT');
    expect(r.signal).toBeNull();
    const drops = [...l.stderr().matchAll(/forward queue full \(\d+ waiting, \d+ KB\); (\d+) dropped so far/g)].map(
      (m) => Number(m[1]),
    );
    expect(drops.length).toBeGreaterThan(10); // ~480-byte bodies, 2 KB: at most a handful wait
    expect(drops).toEqual(drops.map((_, i) => i + 1));
    for (let i = 1; i <= 20; i++)
      expect(l.stderr()).toMatch(new RegExp(`could not forward invitation ${i} \\(Complete\\)`));
  });

  it('--exec-queue and --exec-queue-bytes bound the --exec queue: drops counted', async () => {
    const l = spawnAssess([
      'callbacks',
      'listen',
      '--port',
      '0',
      '--print-url',
      '--no-inbox',
      '--exec',
      'sleep 60',
      '--exec-queue',
      '5',
    ]);
    const url = await l.firstLine();
    for (let i = 1; i <= 20; i++) await post(url, i);
    await waitFor(() => /15 dropped so far/.test(l.stderr()), { what: 'the drops' });
    const r = await l.stop('SIGINT');
    expect(r.signal).toBeNull();
    expect(l.stderr()).toMatch(
      /--exec queue full \(4 waiting, [\d.]+ KB\): dropped invitation 6 \(Complete\); 1 dropped so far/,
    );
    expect(l.stderr()).toMatch(
      /5 notifications --exec not run: invitation 1 \(Complete\), invitation 2 \(Complete\), invitation 3 \(Complete\), invitation 4 \(Complete\), invitation 5 \(Complete\)/,
    );
    expect(l.stderr()).toMatch(/15 notifications --exec not run: dropped while the queue was full/);

    const b = spawnAssess([
      'callbacks',
      'listen',
      '--port',
      '0',
      '--print-url',
      '--no-inbox',
      '--exec',
      'sleep 60',
      '--exec-queue-bytes',
      '2KB',
    ]);
    const burl = await b.firstLine();
    for (let i = 1; i <= 20; i++) await post(burl, i);
    await waitFor(() => /dropped so far/.test(b.stderr()), { what: 'a drop' });
    expect((await b.stop('SIGINT')).signal).toBeNull();
    const waited = Number(/(\d+) notifications? --exec not run: invitation/.exec(b.stderr())![1]);
    const dropped = Number(/(\d+) notifications? --exec not run: dropped/.exec(b.stderr())![1]);
    expect(waited).toBeLessThan(10); // ~480-byte bodies, 2 KB
    expect(waited + dropped).toBe(20);

    const bad = spawnAssess(['callbacks', 'listen', '--port', '0', '--exec-queue-bytes', 'lots']);
    expect((await bad.done).code).toBe(2);
    expect(bad.stderr()).toMatch(/--exec-queue-bytes/);
  });

  it('a second Ctrl-C stops at once (exit 130)', async () => {
    const l = spawnAssess([
      'callbacks',
      'listen',
      '--port',
      '0',
      '--print-url',
      '--no-inbox',
      '--exec',
      'trap "" TERM; sleep 60',
    ]);
    const url = await l.firstLine();
    await post(url, 1);
    await waitFor(() => l.lines().length >= 2, { what: 'the notification printed' });
    const r = await ctrlCTwice(l);
    expect(r.code).toBe(130);
    expect(l.stderr()).toMatch(/interrupted again: stopping now/);
  });
});

/** Whether the process runs (a zombie no one reaps, as under a container's init, is not running). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = `/proc/${pid}/stat`;
  return !existsSync(stat) || !/^\d+ \(.*\) Z/.test(readFileSync(stat, 'utf8'));
}

describe('callbacks listen stops what a running --exec started (its process group)', () => {
  // the command's shell starts children and waits: they are what was left running (ppid 1)
  const cases: Array<[string, NodeJS.Signals, number, string]> = [
    [
      'SIGTERM: a pipeline and a background child of the shell',
      'SIGTERM',
      143,
      'sleep 78 | cat & echo $! > "$D/pid.tmp"; sleep 77 & echo $! >> "$D/pid.tmp"',
    ],
    [
      'Ctrl-C: a command that ignores SIGTERM is killed (SIGKILL) after a moment',
      'SIGINT',
      0,
      'trap "" TERM; sleep 76 & echo $! > "$D/pid.tmp"',
    ],
  ];
  for (const [name, signal, code, start] of cases)
    it(name, async () => {
      const dir = tempDir();
      const l = spawnAssess(
        [
          'callbacks',
          'listen',
          '--port',
          '0',
          '--print-url',
          '--no-inbox',
          '--exec',
          `${start}; echo $$ >> "$D/pid.tmp"; mv "$D/pid.tmp" "$D/pids"; wait`,
        ],
        {
          env: { D: dir.dir },
        },
      );
      let pids: number[] = [];
      try {
        const url = await l.firstLine();
        expect((await post(url, 1)).status).toBe(200);
        const file = join(dir.dir, 'pids');
        await waitFor(() => existsSync(file), { what: 'the --exec command to start' });
        pids = readFileSync(file, 'utf8').trim().split('\n').map(Number);
        expect(pids.every(running)).toBe(true);
        const r = await l.stop(signal);
        expect(r).toEqual({ code, signal: null }); // it ended by itself, not by the harness's SIGKILL
        await waitFor(() => !pids.some(running), {
          what: `the --exec command's processes ${pids.join(', ')} to end`,
        });
        expect(l.stderr()).toMatch(/1 notification --exec not run: invitation 1 \(Complete\)/);
      } finally {
        for (const pid of pids.filter(running)) process.kill(pid, 'SIGKILL');
        dir.cleanup();
      }
    });

  it('a second Ctrl-C (exit at once) kills them too', async () => {
    const dir = tempDir();
    const l = spawnAssess(
      [
        'callbacks',
        'listen',
        '--port',
        '0',
        '--print-url',
        '--no-inbox',
        '--exec',
        'trap "" TERM; sleep 75 & echo $! > "$D/pid.tmp"; mv "$D/pid.tmp" "$D/pid"; wait',
      ],
      {
        env: { D: dir.dir },
      },
    );
    let pid = 0;
    try {
      const url = await l.firstLine();
      await post(url, 1);
      await waitFor(() => existsSync(join(dir.dir, 'pid')), { what: 'the --exec command to start' });
      pid = Number(readFileSync(join(dir.dir, 'pid'), 'utf8'));
      expect(running(pid)).toBe(true);
      expect((await ctrlCTwice(l)).code).toBe(130);
      await waitFor(() => !running(pid), { what: `the --exec command's child ${pid} to end` });
    } finally {
      if (pid && running(pid)) process.kill(pid, 'SIGKILL');
      dir.cleanup();
    }
  });
});

describe('callbacks listen --exec with values no environment can hold', () => {
  it('a NUL in a field, a field over 32 KB: the command runs all the same (the body on stdin), with a warning; nothing is skipped silently', async () => {
    const dir = tempDir();
    const record =
      'printf "%s|%s|%s|%s\\n" "${ASSESS_EVENT_OMITTED-unset}" "$ASSESS_EVENT_PERFORMANCE_CATEGORY" ' +
      '"${#ASSESS_EVENT_JSON}" "$(wc -c | tr -d " ")"';
    const l = spawnAssess(
      [
        'callbacks',
        'listen',
        '--port',
        '0',
        '--print-url',
        '--no-inbox',
        '--exec',
        `${record} > "$D/ran-$ASSESS_EVENT_INVITATION_ID"`,
      ],
      {
        env: { D: dir.dir },
      },
    );
    try {
      const url = await l.firstLine();
      const send = (body: string) =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const big = JSON.stringify(completionBody(903, undefined, { PerformanceCategory: 'x'.repeat(900_000) }));
      expect(
        (await send(JSON.stringify(completionBody(901, undefined, { PerformanceCategory: 'a\u0000b' })))).status,
      ).toBe(200);
      expect((await send(big)).status).toBe(200);
      expect((await send(JSON.stringify(completionBody(905)))).status).toBe(200);
      const ran = (id: number) => join(dir.dir, `ran-${id}`);
      await waitFor(
        () => [901, 903, 905].every((id) => existsSync(ran(id)) && readFileSync(ran(id), 'utf8').endsWith('\n')),
        {
          what: '--exec for the 3 notifications',
        },
      );
      expect(readFileSync(ran(901), 'utf8')).toMatch(/^unset\|ab\|\d+\|\d+\n$/); // the NUL removed
      // the long values left out and named; the whole body on stdin
      expect(readFileSync(ran(903), 'utf8')).toBe(
        `ASSESS_EVENT_PERFORMANCE_CATEGORY,ASSESS_EVENT_JSON||0|${Buffer.byteLength(big)}\n`,
      );
      expect(readFileSync(ran(905), 'utf8')).toMatch(/^unset\|\|\d+\|\d+\n$/);
      expect(l.stderr()).toMatch(
        /--exec for invitation 901 \(Complete\): NUL characters removed from ASSESS_EVENT_PERFORMANCE_CATEGORY/,
      );
      expect(l.stderr()).toMatch(
        /--exec for invitation 903 \(Complete\): ASSESS_EVENT_PERFORMANCE_CATEGORY, ASSESS_EVENT_JSON left out of its environment/,
      );
      expect((await l.stop('SIGINT')).code).toBe(0);
      expect(l.stderr()).not.toMatch(/not run/);
    } finally {
      await l.stop();
      dir.cleanup();
    }
  });
});
