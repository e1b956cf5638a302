// The ledger of registered callbacks (issue 33, point 2): invite (v3, by link, v2) and reattempt
// with a callback URL append the invitation to <config dir>/callbacks/<profile>.ledger.ndjson
// (0600, the URL without its query); without a callback URL nothing is recorded; reconcile checks
// only those by default, --all every completed attempt; an unwritable ledger is a warning.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLedger } from '../../src/commands/shared/callback-ledger.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as runAssess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let ts: TestSandbox;
const cfg = tempDir();
const ledger = join(cfg.dir, 'callbacks', 'default.ledger.ndjson');
beforeAll(async () => {
  ts = await startTestSandbox();
});
afterAll(async () => {
  await ts?.close();
  cfg.cleanup();
});

const run = (args: string[]) => runAssess(args, { env: ts.env, configDir: cfg.dir });
const idOf = (stdout: string) => String(JSON.parse(stdout).testInvitationId);

describe('the callback ledger', () => {
  const hook = 'http://127.0.0.1:8787/hook?token=s3cret';
  const ids: Record<string, string> = {};

  it('records invite (v3), invite --api v2 and reattempt with a callback URL, not without; file 0600, no token', async () => {
    const a = await run([
      'invite',
      '1001',
      '--email',
      'l1@example.com',
      '--name',
      'L One',
      '--callback-url',
      hook,
      '--json',
    ]);
    expect(a.code, a.stderr).toBe(0);
    ids.v3 = idOf(a.stdout);
    const none = await run(['invite', '1001', '--email', 'l2@example.com', '--name', 'L Two', '--json']);
    expect(none.code, none.stderr).toBe(0);
    ids.none = idOf(none.stdout);
    const v2 = await run([
      '--api',
      'v2',
      'invite',
      '1002',
      '--email',
      'l3@example.com',
      '--name',
      'L Three',
      '--callback-url',
      hook,
      '--json',
    ]);
    expect(v2.code, v2.stderr).toBe(0);
    ids.v2 = idOf(v2.stdout);
    await ts.control('POST', `/invitations/${ids.none}/simulate`, { to: 'complete' });
    const re = await run([
      'reattempt',
      ids.none,
      '--start',
      'now',
      '--end',
      '7d',
      '--tz',
      '1',
      '--callback-url',
      hook,
      '--json',
    ]);
    expect(re.code, re.stderr).toBe(0);
    ids.reattempt = idOf(re.stdout);

    const entries = readLedger(ledger);
    expect(entries.map((e) => [e.invitationId, e.via, e.api])).toEqual([
      [ids.v3, 'invite', 'v3'],
      [ids.v2, 'invite', 'v2'],
      [ids.reattempt, 'reattempt', 'v3'],
    ]);
    expect(entries.every((e) => e.callbackUrl === 'http://127.0.0.1:8787/hook')).toBe(true);
    expect(readFileSync(ledger, 'utf8')).not.toContain('s3cret');
    expect(statSync(ledger).mode & 0o777).toBe(0o600);
  });

  it('reconcile checks the registered ones by default and every completed attempt with --all', async () => {
    await ts.control('POST', `/invitations/${ids.v3}/simulate`, { to: 'complete' });
    const inbox = join(cfg.dir, 'empty-inbox.db');
    writeFileSync(inbox, '');
    const mine = await run([
      'callbacks',
      'reconcile',
      '--from',
      '1d',
      '--to',
      'now',
      '--store',
      inbox,
      '--json',
      'testInvitationId',
    ]);
    expect(mine.code, mine.stderr).toBe(0);
    const listed = (JSON.parse(mine.stdout) as Array<{ testInvitationId: string }>).map((r) =>
      String(r.testInvitationId),
    );
    expect(listed).toContain(ids.v3);
    expect(listed).not.toContain(ids.none); // completed, but never registered a callback
    expect(mine.stderr).toMatch(
      /completed attempt\(s\) between .*; \d+ of them registered a callback URL through this CLI \(ledger .*default\.ledger\.ndjson; --all checks every one\);/,
    );
    const all = await run([
      'callbacks',
      'reconcile',
      '--from',
      '1d',
      '--to',
      'now',
      '--store',
      inbox,
      '--all',
      '--json',
      'testInvitationId',
    ]);
    expect(
      (JSON.parse(all.stdout) as Array<{ testInvitationId: string }>).map((r) => String(r.testInvitationId)),
    ).toContain(ids.none);
  });

  it('an unwritable ledger is a warning: the invitation was created all the same', async () => {
    const other = tempDir();
    try {
      mkdirSync(join(other.dir, 'callbacks', 'default.ledger.ndjson'), { recursive: true }); // a directory where the file goes: EISDIR, also as root
      const r = await runAssess(
        ['invite', '1001', '--email', 'l9@example.com', '--name', 'L Nine', '--callback-url', hook, '--json'],
        {
          env: ts.env,
          configDir: other.dir,
        },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(idOf(r.stdout)).toMatch(/^\d+$/);
      expect(r.stderr).toMatch(
        /was created, but could not be recorded in the callback ledger .*\(EISDIR\); callbacks reconcile --all still checks it\./,
      );
    } finally {
      other.cleanup();
    }
  });
});
