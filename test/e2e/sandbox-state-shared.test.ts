// The sandbox's state file shared by processes, against the built binary: two `sandbox serve`
// on one --state both serve it, `assess --sandbox` commands run at once all keep their changes,
// an `assess --sandbox mcp` session left open locks no other `--sandbox` command out, and a state
// file that cannot be used is refused at once with exit 2 (a FIFO never hangs the open).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, NODE, ROOT, runAssess, tempDir } from '../helpers/cli.js';
import { readState } from '../helpers/sandbox-state.js';
import { spawnAssess } from '../helpers/spawn.js';

const work = tempDir('assess-state-shared-');
afterAll(() => work.cleanup());

const invite = (n: number, configDir: string) =>
  runAssess(
    [
      '--sandbox',
      'invite',
      '1001',
      '--email',
      `turn${n}@example.com`,
      '--name',
      `Turn ${n}`,
      '--json',
      'testInvitationId',
    ],
    { configDir },
  );

describe('processes on one state file', () => {
  it('two `sandbox serve` on the same --state both serve it: what one makes, the other shows', async () => {
    const stateFile = join(work.dir, 'shared.db');
    const first = spawnAssess(['sandbox', 'serve', '--port', '0', '--json', '--state', stateFile]);
    const second = spawnAssess(['sandbox', 'serve', '--port', '0', '--json', '--state', stateFile]);
    try {
      const [a, b] = await Promise.all(
        [first, second].map(async (p) => JSON.parse(await p.firstLine()) as { baseUrl: string; keys: string[] }),
      );
      const res = await fetch(`${a!.baseUrl}/v3/tests/1001/invite`, {
        method: 'POST',
        headers: { 'X-API-KEY': a!.keys[0]!, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'both@example.com', name: 'Both' }),
      });
      const { testInvitationId } = (await res.json()) as { testInvitationId: number };
      const seen = await fetch(`${b!.baseUrl}/_sandbox/invitations/${testInvitationId}`);
      expect(((await seen.json()) as { email: string }).email).toBe('both@example.com');
    } finally {
      expect((await first.stop('SIGINT')).code).toBe(0);
      expect((await second.stop('SIGTERM')).code).toBe(143); // 128 + SIGTERM
    }
  });

  it('five `assess --sandbox invite` run at once: all five invitations are in the state afterwards', async () => {
    const config = tempDir('assess-state-cfg-');
    try {
      const runs = await Promise.all([1, 2, 3, 4, 5].map((n) => invite(n, config.dir)));
      for (const r of runs) expect(r.code, r.stderr).toBe(0);
      const ids = runs.map((r) => (JSON.parse(r.stdout) as { testInvitationId: number }).testInvitationId);
      expect(new Set(ids).size).toBe(5);
      const emails = readState(join(config.dir, 'sandbox', 'state.db'))
        .invitations.map((i) => i.email)
        .filter((e) => e.startsWith('turn'));
      expect(emails.sort()).toEqual([1, 2, 3, 4, 5].map((n) => `turn${n}@example.com`));
    } finally {
      config.cleanup();
    }
  });

  it('an `assess --sandbox mcp` session left open locks no other --sandbox command out', async () => {
    const config = tempDir('assess-state-mcp-');
    const transport = new StdioClientTransport({
      command: NODE,
      args: [BIN, '--sandbox', 'mcp'],
      env: baseEnv(config.dir),
      cwd: ROOT,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'assess-e2e', version: '1.0.0' });
    try {
      await client.connect(transport);
      // a first call starts its embedded sandbox on the state file; the session stays open
      const listed = (await client.callTool({ name: 'tests_list', arguments: {} })) as { isError?: boolean };
      expect(listed.isError).toBeFalsy();
      const r = await invite(6, config.dir);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/in use|waiting/);
      const { testInvitationId } = JSON.parse(r.stdout) as { testInvitationId: number };
      // and the session sees what that command made
      const report = (await client.callTool({
        name: 'report',
        arguments: { invitationId: String(testInvitationId) },
      })) as {
        structuredContent?: { testInvitationId?: number };
      };
      expect(JSON.stringify(report)).toContain(String(testInvitationId));
    } finally {
      await client.close();
      config.cleanup();
    }
  });
});

describe('a state file that cannot be used: exit 2 at once, naming it, left as it is', () => {
  it('a FIFO (never opened: it would block for ever), a device, a directory, not a database', async () => {
    const fifo = join(work.dir, 'fifo.db');
    execFileSync('mkfifo', [fifo]);
    const dir = join(work.dir, 'a-directory');
    mkdirSync(dir);
    const garbage = join(work.dir, 'garbage.db');
    writeFileSync(garbage, 'not a database\n'.repeat(100));
    // serve stats the file before anything (src/util/regular-file.ts); the store refuses what SQLite cannot use
    for (const [file, refusal] of [
      [fifo, `--state: ${fifo} is a FIFO, not a regular file`],
      ['/dev/null', '--state: /dev/null is a character device, not a regular file'],
      [dir, `--state: ${dir} is a directory, not a regular file`],
      [garbage, `cannot use the sandbox state ${garbage}: file is not a database`],
    ] as const) {
      const r = await runAssess(['sandbox', 'serve', '--port', '0', '--state', file]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(refusal);
      expect(r.stdout).toBe('');
    }
    expect(readFileSync(garbage, 'utf8')).toBe('not a database\n'.repeat(100));
  });

  it("an earlier assess's JSON state: refused where --state names it; beside the embedded state, named once", async () => {
    const old = join(work.dir, 'old-state.json');
    const text = '{"format": "assess-sandbox-state", "version": 1}\n';
    writeFileSync(old, text);
    const r = await runAssess(['sandbox', 'serve', '--port', '0', '--state', old]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${old}: it is the state file of an earlier assess (JSON), which this one does not read`,
    );
    expect(r.stderr).toMatch(/give --state a new file/);
    expect(readFileSync(old, 'utf8')).toBe(text);

    const config = tempDir('assess-state-former-');
    try {
      const former = join(config.dir, 'sandbox', 'state.json');
      mkdirSync(join(config.dir, 'sandbox'), { recursive: true });
      writeFileSync(former, text);
      const first = await runAssess(['--sandbox', 'tests', 'list'], { configDir: config.dir });
      expect(first.code, first.stderr).toBe(0);
      const notice = first.stderr.split('\n').filter((l) => l.includes(former));
      expect(notice).toHaveLength(1);
      expect(notice[0]).toMatch(/sandbox state of an earlier assess \(JSON\), which this one does not read/);
      const again = await runAssess(['--sandbox', 'tests', 'list'], { configDir: config.dir });
      expect(again.stderr).not.toContain(former); // once: when the new state was made
      expect(readFileSync(former, 'utf8')).toBe(text);
    } finally {
      config.cleanup();
    }
  });

  it('held by another writer past the busy timeout: exit 2 naming the file and ASSESS_BUSY_TIMEOUT', async () => {
    const file = join(work.dir, 'busy.db');
    const made = spawnAssess(['sandbox', 'serve', '--port', '0', '--json', '--state', file]);
    await made.firstLine();
    expect((await made.stop('SIGINT')).code).toBe(0);
    const holder = new DatabaseSync(file);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const r = await runAssess(['sandbox', 'serve', '--port', '0', '--state', file], {
        env: { ASSESS_BUSY_TIMEOUT: '0.5' },
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`cannot use the sandbox state ${file}: it is busy`);
      expect(r.stderr).toContain('ASSESS_BUSY_TIMEOUT');
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });
});
