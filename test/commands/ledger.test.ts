// The ledger of every invitation this CLI creates (src/commands/shared/ledger.ts), in the
// profile's store: invite (v3, --link, v2), reattempt, invite --from-csv and the invite tool of
// `assess mcp`, with or without a callback URL; the URL without its query or credentials; a
// store that cannot be used stops the invite before anything is sent; reconcile checks the
// invitations made with a callback URL by default.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext, type Runtime } from '../../src/cli/context-factory.js';
import { callTool } from '../../src/mcp/call.js';
import { TOOLS } from '../../src/mcp/catalogue.js';
import { deriveTools } from '../../src/mcp/tool-from-command.js';
import { FilesFolder } from '../../src/mcp/files.js';
import { loadNoun } from '../../src/commands/index.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as runAssess } from '../helpers/in-process.js';
import { memoryProcess } from '../helpers/memory-io.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { ledgerRows, storeOf } from '../helpers/store.js';

let ts: TestSandbox;
const cfg = tempDir();
beforeAll(async () => {
  ts = await startTestSandbox();
});
afterAll(async () => {
  await ts?.close();
  cfg.cleanup();
});

const run = (args: string[]) => runAssess(args, { env: ts.env, configDir: cfg.dir });
const idOf = (stdout: string) => String(JSON.parse(stdout).testInvitationId);
const hook = 'http://user:pw@127.0.0.1:8787/hook?token=s3cret';

describe('the ledger of invitations', () => {
  const ids: Record<string, string> = {};

  it('records every invitation: invite (v3, --link, v2) and reattempt, with or without a callback URL', async () => {
    const a = await run(['invite', '1001', '--email', 'L1@Example.com', '--name', 'L One', '--callback-url', hook]);
    expect(a.code, a.stderr).toBe(0);
    const none = await run([
      'invite',
      '1001',
      '--email',
      'l2@example.com',
      '--name',
      'L Two',
      '--send-email',
      '--json',
    ]);
    expect(none.code, none.stderr).toBe(0);
    ids.none = idOf(none.stdout);
    const link = await run(['invite', '1001', '--link', '5002', '--email', 'l4@example.com', '--name', 'L Four']);
    expect(link.code, link.stderr).toBe(0);
    const v2 = await run(['--api', 'v2', 'invite', '1002', '--email', 'l3@example.com', '--name', 'L Three']);
    expect(v2.code, v2.stderr).toBe(0);
    await ts.control('POST', `/invitations/${ids.none}/simulate`, { to: 'complete' });
    const re = await run(['reattempt', ids.none, '--start', 'now', '--end', '7d', '--tz', '1', '--callback-url', hook]);
    expect(re.code, re.stderr).toBe(0);

    const rows = ledgerRows(cfg.dir);
    expect(rows.map((r) => [r.via, r.api, r.test_id, r.link_id, r.email, r.send_email, r.outcome])).toEqual([
      ['invite', 'v3', '1001', null, 'l1@example.com', 0, 'invited'],
      ['invite', 'v3', '1001', null, 'l2@example.com', 1, 'invited'],
      ['invite --link', 'v3', '1001', '5002', 'l4@example.com', 0, 'invited'],
      ['invite', 'v2', '1002', null, 'l3@example.com', 0, 'invited'],
      // a reattempt is of its invitation's candidate: the test and e-mail come from the ledger
      ['reattempt', 'v3', '1001', null, 'l2@example.com', 0, 'invited'],
    ]);
    expect(rows.every((r) => /^\d+$/.test(r.invitation_id ?? '') && !Number.isNaN(Date.parse(r.at)))).toBe(true);
    expect(rows.map((r) => r.name)).toEqual(['L One', 'L Two', 'L Four', 'L Three', 'L Two']);
    // the callback URL without its query and credentials (a listener's ?token= stays out of the store)
    expect(rows.map((r) => r.callback_url)).toEqual([
      'http://127.0.0.1:8787/hook',
      null,
      null,
      null,
      'http://127.0.0.1:8787/hook',
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/s3cret|pw@/);
    expect(statSync(storeOf(cfg.dir)).mode & 0o777).toBe(0o600);
    expect(new Set(rows.map((r) => r.target)).size).toBe(1);
  });

  it('records each row of invite --from-csv', async () => {
    const csv = join(cfg.dir, 'pair.csv');
    writeFileSync(csv, `email,name,callbackUrl\nc1@example.com,C One,${hook}\nc2@example.com,C Two,\n`);
    const r = await run(['invite', '1001', '--from-csv', csv, '--send-email']);
    expect(r.code, r.stderr).toBe(0);
    const rows = ledgerRows(cfg.dir).filter((x) => x.via === 'invite --from-csv');
    expect(rows.map((x) => [x.email, x.name, x.send_email, x.outcome, x.callback_url])).toEqual([
      ['c1@example.com', 'C One', 1, 'invited', 'http://127.0.0.1:8787/hook'],
      ['c2@example.com', 'C Two', 1, 'invited', null],
    ]);
  });

  it('records an invitation an assistant makes through assess mcp, and none for its dry run', async () => {
    const rt: Runtime = {
      proc: memoryProcess({ ...ts.env, ASSESS_CONFIG_DIR: cfg.dir }),
      signal: new AbortController().signal,
      debug: false,
      exitHooks: [],
    };
    const base = await createContext(new Command('assess'), rt);
    const [tool] = await deriveTools(
      TOOLS.filter((t) => t.path.join(' ') === 'invite'),
      loadNoun,
    );
    const session = { base, writesAllowed: () => true, files: new FilesFolder(join(cfg.dir, 'files'), '--files') };
    const before = ledgerRows(cfg.dir).length;
    const dry = await callTool(
      tool!,
      { testId: '1001', email: 'm0@example.com', name: 'M Zero', dryRun: true },
      session,
    );
    expect(dry.outcome).toBe('dry-run');
    expect(ledgerRows(cfg.dir)).toHaveLength(before);
    const done = await callTool(tool!, { testId: '1001', email: 'm1@example.com', name: 'M One' }, session);
    for (const hook of rt.exitHooks.reverse()) await hook();
    expect(done.outcome, JSON.stringify(done.result)).toBe('ok');
    const last = ledgerRows(cfg.dir).at(-1)!;
    expect([last.via, last.email, last.outcome]).toEqual(['mcp invite', 'm1@example.com', 'invited']);
  });

  it('reconcile checks the invitations made with a callback URL by default, every completed one with --all', async () => {
    const withHook = ledgerRows(cfg.dir).find((r) => r.email === 'l1@example.com')!.invitation_id!;
    await ts.control('POST', `/invitations/${withHook}/simulate`, { to: 'complete' });
    const inbox = join(cfg.dir, 'empty-callbacks.db');
    const args = ['callbacks', 'reconcile', '--from', '1d', '--to', 'now', '--store', inbox];
    const mine = await run([...args, '--json', 'testInvitationId']);
    expect(mine.code, mine.stderr).toBe(0);
    const listed = (JSON.parse(mine.stdout) as Array<{ testInvitationId: string }>).map((r) =>
      String(r.testInvitationId),
    );
    expect(listed).toContain(withHook);
    expect(listed).not.toContain(ids.none); // completed, but made without a callback URL
    expect(mine.stderr).toMatch(
      /\d+ of them registered a callback URL through this CLI \(the ledger in .*store\/default\.db; --all checks every one\);/,
    );
    // an older assess's NDJSON ledger is named, not read, and left as it was
    const old = join(cfg.dir, 'callbacks', 'default.ledger.ndjson');
    mkdirSync(join(cfg.dir, 'callbacks'), { recursive: true });
    writeFileSync(old, '{"invitationId":"1"}\n');
    const all = await run([...args, '--all', '--json', 'testInvitationId']);
    expect(all.stderr).toContain(`note: ${old} is the ledger of an older assess; it is not read`);
    expect(readFileSync(old, 'utf8')).toBe('{"invitationId":"1"}\n');
    expect(
      (JSON.parse(all.stdout) as Array<{ testInvitationId: string }>).map((r) => String(r.testInvitationId)),
    ).toContain(ids.none);
  });

  it('a store that cannot be used stops the invite before anything is sent (exit 2, the file, the cause)', async () => {
    const other = tempDir();
    try {
      mkdirSync(storeOf(other.dir), { recursive: true }); // a directory where the file goes
      await ts.control('DELETE', '/requests');
      const r = await runAssess(['invite', '1001', '--email', 'l9@example.com', '--name', 'L Nine'], {
        env: ts.env,
        configDir: other.dir,
      });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`cannot use the store ${storeOf(other.dir)}: not a regular file`);
      expect((await ts.requests()).filter((q) => q.method === 'POST')).toEqual([]);
    } finally {
      other.cleanup();
    }
  });
});
