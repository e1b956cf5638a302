// `attempts list --state pending | in-progress`: answered from the invitations this profile made
// (its ledger), checked against the service's completed, cancelled and expired lists and, for the
// rest, a report each. Invite 4, complete 1, start 1, cancel 1: exactly one pending, one in
// progress; an invitation made elsewhere is not listed; each row says when and how it was made.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as runAssess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let ts: TestSandbox;
const cfg = tempDir();
const ids: string[] = [];
beforeAll(async () => {
  ts = await startTestSandbox();
  for (let i = 0; i < 4; i++) {
    const r = await run(['invite', '1001', '--email', `open${i}@example.com`, '--name', `Open ${i}`, '--json']);
    expect(r.code, r.stderr).toBe(0);
    ids.push(String(JSON.parse(r.stdout).testInvitationId));
  }
  await ts.control('POST', `/invitations/${ids[0]}/simulate`, { to: 'complete' });
  await ts.control('POST', `/invitations/${ids[1]}/simulate`, { to: 'start' });
  const cancel = await run(['attempts', 'cancel', ids[2]!, '--yes']);
  expect(cancel.code, cancel.stderr).toBe(0);
  // made elsewhere (not through this CLI): the service knows it, this profile does not
  await ts.service('/v3/tests/1001/invite', { email: 'elsewhere@example.com', name: 'Else Where' });
});
afterAll(async () => {
  await ts?.close();
  cfg.cleanup();
});

const run = (args: string[]) => runAssess(args, { env: ts.env, configDir: cfg.dir });
type Row = { testInvitationId: number; email: string; testStatus: string; invitedAt: string; invitedVia: string };

describe('attempts list --state pending | in-progress', () => {
  it('invite 4, complete 1, start 1, cancel 1: exactly one pending', async () => {
    const r = await run(['attempts', 'list', '--state', 'pending', '--from', '1h', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    expect(rows.map((x) => [String(x.testInvitationId), x.email, x.testStatus, x.invitedVia])).toEqual([
      [ids[3], 'open3@example.com', 'Pending', 'invite'],
    ]);
    expect(Date.parse(rows[0]!.invitedAt)).toBeGreaterThan(Date.now() - 3_600_000);
    // said plainly: from this profile's records, since the service cannot list them
    expect(r.stderr).toMatch(/pending: from the 4 invitations this profile made between .* \(its ledger, .*\)/);
    expect(r.stderr).toContain('which cannot list pending attempts itself');
  });

  it('--state in-progress: the one started', async () => {
    const r = await run([
      'attempts',
      'list',
      '--state',
      'in-progress',
      '--from',
      '1h',
      '--json',
      'testInvitationId,testStatus',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ testInvitationId: Number(ids[1]), testStatus: 'In Progress' }]);
  });

  it('--csv and --query as everywhere; a window before the invitations lists none', async () => {
    const csv = await run(['attempts', 'list', '--state', 'pending', '--from', '1h', '--csv']);
    expect(csv.code, csv.stderr).toBe(0);
    const [head, ...lines] = csv.stdout.trim().split('\r\n');
    expect(head).toBe('testInvitationId,testId,name,email,testStatus,invitedAt,invitedVia');
    expect(lines).toHaveLength(1);
    const q = await run(['attempts', 'list', '--state', 'pending', '--from', '1h', '--query', '[].email']);
    expect(JSON.parse(q.stdout)).toEqual(['open3@example.com']);
    const before = await run(['attempts', 'list', '--state', 'pending', '--from', '3h', '--to', '2h', '--json']);
    expect(before.code, before.stderr).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual([]);
  });

  it('the help says where these states come from', async () => {
    const r = await run(['attempts', 'list', '--help']);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      'pending or in-progress: the invitations this profile made in the window',
    );
  });
});
