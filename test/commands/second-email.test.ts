// No second e-mail by accident: an invite with --send-email whose answer is lost after the
// service acted says the candidate may already be invited and e-mailed and how to check; the
// attempt is in the ledger before it is sent; the same command again asks the service for the
// invitation without an e-mail (the outbox keeps one), and only --yes e-mails again.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as runAssess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { ledgerRows } from '../helpers/store.js';

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
const mails = async (to: string) =>
  (await ts.control<{ emails: Array<{ to: string; kind: string }> }>('GET', '/outbox')).emails.filter(
    (e) => e.to === to && e.kind === 'invitation',
  ).length;

describe('invite --send-email after a lost answer', () => {
  const who = 'lost.answer@example.com';
  const invite = ['invite', '1001', '--email', who, '--name', 'Lost Answer', '--send-email'];

  it('the lost answer: the candidate may already be invited and e-mailed, and how to check', async () => {
    await ts.control('POST', '/faults', { spec: 'reset=1,after=1,seed=1' }); // acted, then the connection dropped
    const r = await run(invite);
    await ts.control('DELETE', '/faults');
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toContain(`${who} may already be invited and e-mailed`);
    expect(r.stderr).toContain('The same command again asks the service for the invitation without e-mailing');
    expect(r.stderr).toContain('assess attempts list --state pending');
    expect(await mails(who)).toBe(1);
    expect(ledgerRows(cfg.dir).map((x) => [x.email, x.send_email, x.outcome])).toEqual([[who, 1, 'unknown']]);
  });

  it('the same command again does not e-mail: it learns the invitation and says so (exit 0)', async () => {
    const r = await run([...invite, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).testInvitationId).toEqual(expect.any(Number));
    expect(r.stderr).toMatch(/not e-mailed: an earlier invite of lost\.answer@example\.com \(.*, invite\) may have/);
    expect(r.stderr).toContain('to e-mail them anyway: the same command with --yes');
    expect(await mails(who)).toBe(1);
    const sent = (await ts.requests()).filter((q) => q.path === '/v3/tests/1001/invite').at(-1)!;
    expect(sent.body).toMatchObject({ email: who, sendEmail: 'no' });
    expect(ledgerRows(cfg.dir).at(-1)).toMatchObject({ send_email: 0, withheld: 1, outcome: 'invited' });
    // and again: the first e-mail's outcome is still unknown
    expect((await run(invite)).code).toBe(0);
    expect(await mails(who)).toBe(1);
  });

  it('a bulk run with that candidate does not e-mail them either, and says so', async () => {
    const csv = join(cfg.dir, 'with-lost.csv');
    writeFileSync(csv, `email,name\n${who},Lost Answer\nfresh@example.com,Fresh One\n`);
    const r = await run(['invite', '1001', '--from-csv', csv, '--send-email', '--results', join(cfg.dir, 'r.ndjson')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`they are invited without an e-mail this time (emailWithheld in the results`);
    expect(r.stderr).toContain('1 not e-mailed again');
    expect(await mails(who)).toBe(1);
    expect(await mails('fresh@example.com')).toBe(1);
    const lines = readFileSync(join(cfg.dir, 'r.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.row.email, l.emailWithheld ?? false])).toEqual([
      [who, true],
      ['fresh@example.com', false],
    ]);
  });

  it('--yes e-mails again, saying it may be the second', async () => {
    const r = await run([...invite, '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('e-mailing again, as --yes asks: this may be their second e-mail');
    expect(await mails(who)).toBe(2);
    // settled: the next one is an ordinary invite
    const next = await run(invite);
    expect(next.stderr).not.toContain('not e-mailed');
    expect(await mails(who)).toBe(3);
  });

  it('a refused invite (surely not acted on) leaves nothing to check', async () => {
    const other = 'refused@example.com';
    const r = await run(['invite', '999999', '--email', other, '--name', 'Refused', '--send-email']);
    expect(r.code).toBe(4);
    expect(r.stderr).not.toContain('may already be invited');
    expect(ledgerRows(cfg.dir).at(-1)).toMatchObject({ email: other, outcome: 'failed' });
  });
});
