// The sandbox outbox (`assess sandbox outbox`) and the redirect reported by `simulate`:
// invitation e-mails only with --send-email (invite and reattempt), stakeholder e-mails on
// completion to the link's list by default, to a custom list, or to nobody with --no-stakeholders.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess as runAssess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

type Email = {
  emailId: number;
  kind: string;
  to: string;
  subject: string;
  testInvitationId: number;
  testUrlPath: string | null;
  reportUrl?: string | null;
};

let ts: TestSandbox;
beforeAll(async () => (ts = await startTestSandbox()));
afterAll(() => ts.close());

async function invite(testId: string, email: string, extra: string[] = []): Promise<string> {
  const r = await runAssess(['invite', testId, '--email', email, '--name', 'Mail Candidate', ...extra, '--json'], {
    env: ts.env,
  });
  expect(r.code, r.stderr).toBe(0);
  return String(JSON.parse(r.stdout).testInvitationId);
}

async function outbox(id: string): Promise<Email[]> {
  const r = await runAssess(['sandbox', 'outbox', '--invitation', id, '--url', ts.sb.baseUrl, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

async function simulate(id: string, to: string, format: string[] = ['--json']) {
  const r = await runAssess(['sandbox', 'simulate', id, to, '--url', ts.sb.baseUrl, ...format]);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

describe('invitation e-mails', () => {
  it('sendEmail no (the default): nothing in the outbox', async () => {
    const id = await invite('1001', 'quiet@example.com');
    expect(await outbox(id)).toEqual([]);
  });

  it('--send-email: one invitation e-mail to the candidate with the test URL', async () => {
    const id = await invite('1001', 'loud@example.com', ['--send-email']);
    const mails = await outbox(id);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      kind: 'invitation',
      to: 'loud@example.com',
      testInvitationId: Number(id),
      subject: expect.stringContaining('Java Backend Developer'),
    });
    expect(mails[0]!.testUrlPath).toMatch(/^\/take\//);
  });

  it('reattempt --send-email: a reattempt e-mail for the new invitation', async () => {
    const id = await invite('1001', 'retake@example.com', ['--no-stakeholders']);
    await simulate(id, 'complete');
    const r = await runAssess(
      ['reattempt', id, '--start', 'now', '--end', '7d', '--tz', '1', '--send-email', '--json'],
      { env: ts.env },
    );
    expect(r.code, r.stderr).toBe(0);
    const next = String(JSON.parse(r.stdout).testInvitationId);
    expect(next).not.toBe(id);
    expect((await outbox(next)).map((m) => [m.kind, m.to])).toEqual([['reattempt', 'retake@example.com']]);
  });
});

describe('stakeholder e-mails on completion', () => {
  it("default: the default link's stakeholders, once the attempt completes (not before)", async () => {
    const id = await invite('1001', 'stake.default@example.com');
    await simulate(id, 'start');
    expect(await outbox(id)).toEqual([]);
    await simulate(id, 'complete');
    const mails = await outbox(id);
    expect(mails.map((m) => [m.kind, m.to])).toEqual([['stakeholder', 'hiring-manager@acme.example']]);
    expect(mails[0]!.subject).toMatch(/stake\.default@example\.com.*Complete/);
    expect(mails[0]!.reportUrl).toBe(`${ts.sb.baseUrl}/v3/reports/${id}/pdf`);
  });

  it("a link without stakeholders: the test owner's address", async () => {
    const id = await invite('1003', 'stake.owner@example.com');
    await simulate(id, 'leave');
    expect((await outbox(id)).map((m) => [m.kind, m.to])).toEqual([['stakeholder', 'hr@acme.example']]);
  });

  it('--stakeholders a,b: one e-mail to each', async () => {
    const id = await invite('1001', 'stake.custom@example.com', ['--stakeholders', 'lead@example.com,cto@example.com']);
    await simulate(id, 'terminate');
    expect((await outbox(id)).map((m) => [m.kind, m.to])).toEqual([
      ['stakeholder', 'lead@example.com'],
      ['stakeholder', 'cto@example.com'],
    ]);
  });

  it('--no-stakeholders (disable): none', async () => {
    const id = await invite('1001', 'stake.off@example.com', ['--no-stakeholders', '--send-email']);
    await simulate(id, 'complete');
    expect((await outbox(id)).map((m) => m.kind)).toEqual(['invitation']);
  });

  it('the whole outbox lists e-mails of every invitation (TSV when piped)', async () => {
    const r = await runAssess(['sandbox', 'outbox', '--url', ts.sb.baseUrl]);
    expect(r.code).toBe(0);
    // the recipient first, then the subject (the first column was the e-mail's id)
    expect(r.stdout).toMatch(/^hiring-manager@acme\.example\t[^\t]+\t[^\t]+\tstakeholder\t/m);
    expect(r.stdout).toMatch(/^loud@example\.com\t[^\t]+\t[^\t]+\tinvitation\t/m);
  });

  it('on a terminal the first column is To', async () => {
    const r = await runAssess(['sandbox', 'outbox', '--url', ts.sb.baseUrl], { tty: true, env: { COLUMNS: '160' } });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').find((l) => /\bTo\b/.test(l))).toMatch(/^\W*To\b/);
  });
});

describe('redirect after completion', () => {
  it('simulate complete reports the URL the candidate lands on', async () => {
    const id = await invite('1001', 'redirect@example.com', [
      '--redirect-url',
      'https://careers.example.com/thanks?ref=assess',
    ]);
    const r = await simulate(id, 'complete');
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: 'Complete',
      redirectTo: 'https://careers.example.com/thanks?ref=assess',
    });
  });

  it('without a redirect URL: redirectTo is null; the human view says so', async () => {
    const id = await invite('1001', 'noredirect@example.com');
    const json = await simulate(id, 'start');
    expect(JSON.parse(json.stdout)).not.toHaveProperty('redirectTo'); // only terminal moves redirect
    const tsv = await simulate(id, 'complete', []);
    expect(tsv.stdout).toMatch(/^redirectTo\t$/m);
  });
});
