// --state FILE: a restart resumes; a corrupt file is refused and left untouched; no file, no disk.
import { mkdtemp, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processStartedAt } from '../../src/util/process-alive.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { loadStateFile } from '../../src/sandbox/persistence.js';
import { harness } from './helpers.js';

let dir: string;
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'assess-sandbox-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('persistence across a restart', () => {
  it('invitations, links, settings, moves and the clock survive close + start', async () => {
    const file = join(dir, 'state.json');
    const h1 = await harness({ stateFile: file });
    const id = await h1.inviteA(1001, 'persist@x.test');
    await h1.move(id, 'complete', { score: 64 });
    const link = await h1.api('POST', '/v3/tests/1001/testlinks', {
      testLinkName: 'Persisted',
      invitationType: 'open',
      invitationSchedule: {
        scheduleType: 'validityindays',
        scheduleDetails: { invitationValidityInDays: 2, timeZoneId: 1 },
      },
    });
    await h1.control('POST', '/clock', { advance: '2d' });
    const report1 = await h1.api('GET', `/v3/reports/${id}?reportType=3`);
    const clock1 = (await h1.control('GET', '/clock')).body.offsetMs;
    await h1.close();

    const h2 = await harness({ stateFile: file });
    try {
      const report2 = await h2.api('GET', `/v3/reports/${id}?reportType=3`);
      expect(report2.status).toBe(200);
      const strip = (r: any) => ({ ...r, pdfReportUrl: undefined });
      expect(strip(report2.body)).toEqual(strip(report1.body));
      expect(report2.body.scorePercentage).toBe(64);
      const links = (await h2.api('GET', '/v3/tests/1001/testlinks')).body.testLinks;
      expect(links.map((l: any) => l.testLinkId)).toContain(link.body.testLinkId);
      expect((await h2.control('GET', '/clock')).body.offsetMs).toBe(clock1);
      // ids keep counting from where they were
      const next = await h2.inviteA(1001, 'persist2@x.test');
      expect(next).toBeGreaterThan(id);
      // the request log carries over, without keys
      const requests = (await h2.control('GET', '/requests')).body.requests;
      expect(requests.some((r: any) => r.path === `/v3/reports/${id}?reportType=3`)).toBe(true);
    } finally {
      await h2.close();
    }
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('sk_sandbox_');
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a 2xx on a change means it is already on disk', async () => {
    const file = join(dir, 'durable.json');
    const h = await harness({ stateFile: file });
    try {
      const id = await h.inviteA(1003, 'durable@x.test');
      const onDisk = (await loadStateFile(file))!.doc; // the snapshot and the change log after it
      expect(onDisk.invitations.some((i: any) => i.testInvitationId === id)).toBe(true);
    } finally {
      await h.close();
    }
  });

  it('reset returns to the seed and is persisted', async () => {
    const file = join(dir, 'reset.json');
    const h = await harness({ stateFile: file });
    const id = await h.inviteA(1001, 'gone@x.test');
    await h.control('POST', '/reset');
    expect((await h.control('GET', `/invitations/${id}`)).status).toBe(404);
    await h.close();
    const onDisk = JSON.parse(await readFile(file, 'utf8'));
    expect(onDisk.invitations.some((i: any) => i.testInvitationId === id)).toBe(false);
  });
});

describe('a corrupt state file', () => {
  it.each([
    ['not JSON', '{"format": "assess-sandbox-state", "vers'],
    ['other JSON', '{"hello": "world"}'],
    ['empty', ''],
  ])('%s: refused with a message naming the file and the way out; file untouched', async (_label, content) => {
    const file = join(dir, `corrupt-${_label.replace(' ', '-')}.json`);
    await writeFile(file, content);
    const err = await startSandbox({ port: 0, stateFile: file }).then(
      () => null,
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err!.message).toContain(file);
    expect(err!.message).toMatch(/delete it to start again from the seed/);
    expect(await readFile(file, 'utf8')).toBe(content);
  });
});

describe('without a state file', () => {
  it('state lives in memory: a new sandbox starts from the seed', async () => {
    const h1 = await harness();
    const id = await h1.inviteA(1001, 'mem@x.test');
    await h1.close();
    const h2 = await harness();
    try {
      expect((await h2.control('GET', `/invitations/${id}`)).status).toBe(404);
    } finally {
      await h2.close();
    }
  });
});

describe('one sandbox per state file (<state>.lock)', () => {
  it('a second sandbox on the same file is refused, naming the pid; after close the file is free again', async () => {
    const file = join(dir, 'locked.json');
    const first = await startSandbox({ stateFile: file });
    try {
      expect((await readFile(`${file}.lock`, 'utf8')).trim()).toBe(`${process.pid} ${processStartedAt(process.pid)}`);
      await expect(startSandbox({ stateFile: file })).rejects.toThrow(
        `is in use by another sandbox (pid ${process.pid})`,
      );
    } finally {
      await first.close();
    }
    await expect(readFile(`${file}.lock`, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    const again = await startSandbox({ stateFile: file });
    await again.close();
  });

  it('waits for the holder to close when asked to, telling onWait once', async () => {
    const file = join(dir, 'turns.json');
    const first = await startSandbox({ stateFile: file });
    const waitedFor: number[] = [];
    const second = startSandbox({
      stateFile: file,
      stateLock: { waitMs: 30_000, onWait: (pid) => waitedFor.push(pid) },
    });
    const { waitFor } = await import('../helpers/wait.js');
    await waitFor(() => waitedFor.length === 1, { what: 'the second sandbox to start waiting' });
    await first.close();
    const sb = await second;
    await sb.close();
    expect(waitedFor).toEqual([process.pid]);
  });

  it('a lock left by a process that is gone (kill -9) is taken over', async () => {
    const file = join(dir, 'stale.json');
    const { spawnSync } = await import('node:child_process');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    await writeFile(`${file}.lock`, `${dead.stdout}\n`);
    const sb = await startSandbox({ stateFile: file });
    try {
      expect((await readFile(`${file}.lock`, 'utf8')).trim()).toBe(`${process.pid} ${processStartedAt(process.pid)}`);
    } finally {
      await sb.close();
    }
  });

  it('a lock whose pid is now another process (started at another time, or after the lock was written) is taken over; else it is not', async () => {
    const file = join(dir, 'reused.json');
    const { spawn } = await import('node:child_process');
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      await writeFile(`${file}.lock`, `${other.pid} 1\n`); // that pid, but "started at tick 1"
      const sb = await startSandbox({ stateFile: file });
      await sb.close();
      await writeFile(`${file}.lock`, `${other.pid}\n`); // an older lock: the pid alone, and it runs
      await expect(startSandbox({ stateFile: file })).rejects.toThrow(
        `is in use by another sandbox (pid ${other.pid})`,
      );
      // the same older lock, written an hour before that process started: a killed run's lock
      // whose pid has wrapped round to a stranger
      const anHourAgo = new Date(Date.now() - 3_600_000);
      await utimes(`${file}.lock`, anHourAgo, anHourAgo);
      const after = await startSandbox({ stateFile: file });
      await after.close();
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('a state file that cannot be used releases the lock it took', async () => {
    const file = join(dir, 'broken.json');
    await writeFile(file, 'not json');
    await expect(startSandbox({ stateFile: file })).rejects.toThrow(/not valid JSON/);
    await expect(readFile(`${file}.lock`, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
