// Hints that point at the real problem, through the built binary: a bad key
// at `auth login`, an unreachable address given by flag or environment (the variable of the
// request's API version), `report --pdf` without -o, cancelling a cancelled invitation,
// `attempts wait --exit-status` on Test Left, and a second `report export --since-last-run` with
// nothing new.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
const work = tempDir('assess-hints-');
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => {
  await s?.close();
  work.cleanup();
});

const run = (args: string[], env: Record<string, string | undefined> = s.env, stdin?: string) =>
  runAssess(args, { env, cwd: work.dir, stdin });
/** A loopback port nobody listens on. */
const DEAD = 'http://127.0.0.1:9';

describe('auth login', () => {
  it('a refused key says to check the key, not an id; nothing is saved (exit 3)', async () => {
    const cfg = tempDir();
    try {
      const r = await runAssess(['auth', 'login', '--base-url', s.env.ASSESS_BASE_URL!, '--key-stdin'], {
        stdin: 'sk_wrong_key_123\n',
        configDir: cfg.dir,
      });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(/refused this key.*nothing was saved/);
      expect(r.stderr).toMatch(/check the key/);
      expect(r.stderr).not.toMatch(/the id/);
      expect(
        existsSync(join(cfg.dir, 'config.json')) &&
          readFileSync(join(cfg.dir, 'config.json'), 'utf8').includes('sk_wrong'),
      ).toBe(false);
    } finally {
      cfg.cleanup();
    }
  });

  it('an unreachable --base-url names the flag, not assess config get base-url (exit 6)', async () => {
    const r = await runAssess(['auth', 'login', '--base-url', DEAD, '--key-stdin'], { stdin: 'sk_some_key_123\n' });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/given with --base-url \(http:\/\/127\.0\.0\.1:9\)/);
    expect(r.stderr).not.toMatch(/config get base-url/);
  });
});

it('an unreachable ASSESS_BASE_URL names the variable, not assess config get base-url (exit 6)', async () => {
  const r = await run(['tests', 'list'], { ASSESS_BASE_URL: DEAD, ASSESS_API_KEY: 'sk_some_key_123' });
  expect(r.code, r.stderr).toBe(6);
  expect(r.stderr).toMatch(/check ASSESS_BASE_URL/);
  expect(r.stderr).not.toMatch(/config get base-url/);
});

it('both variables on one unreachable address: a v3 request names ASSESS_BASE_URL, a v2 one ASSESS_BASE_URL_V2 (exit 6)', async () => {
  const env = { ASSESS_BASE_URL: DEAD, ASSESS_BASE_URL_V2: DEAD, ASSESS_API_KEY: 'sk_some_key_123' };
  const v3 = await run(['report', '900101', '--json'], env);
  expect(v3.code, v3.stderr).toBe(6);
  expect(v3.stderr).toMatch(/check ASSESS_BASE_URL \(the address it sets\)/);
  expect(v3.stderr).not.toMatch(/ASSESS_BASE_URL_V2/);
  const v2 = await run(['report', '900101', '--json', '--api', 'v2'], env);
  expect(v2.code, v2.stderr).toBe(6);
  expect(v2.stderr).toMatch(/check ASSESS_BASE_URL_V2 \(the address it sets\)/);
});

it('report --pdf without -o: an existing file is named as the default name, not "-o: … already exists"', async () => {
  const first = await run(['report', '900001', '--pdf']);
  expect(first.code, first.stderr).toBe(0);
  const again = await run(['report', '900001', '--pdf']);
  expect(again.code).toBe(2);
  expect(again.stderr).toMatch(
    /^error: --pdf: .*report-.*900001\.pdf already exists \(the default name for this report\)/,
  );
  expect(again.stderr).not.toMatch(/-o: /);
  expect(again.stderr).toMatch(/--force/);
});

it('cancelling a cancelled invitation says it is cancelled already (exit 1), not only the service sentence', async () => {
  const invited = await run([
    'invite',
    '1001',
    '--email',
    'twice@hints.example',
    '--name',
    'Twice',
    '--json',
    'testInvitationId',
  ]);
  const id = String(JSON.parse(invited.stdout).testInvitationId);
  expect((await run(['attempts', 'cancel', id, '--yes'])).code).toBe(0);
  const again = await run(['attempts', 'cancel', id, '--yes']);
  expect(again.code).toBe(1);
  expect(again.stderr).toMatch(new RegExp(`^error: invitation ${id} is already cancelled; nothing changed`));
  expect(again.stderr).toMatch(/only a Pending invitation can be cancelled/);
});

it('attempts wait --until any-terminal --exit-status on Test Left: reached, but not Complete (exit 1)', async () => {
  const invited = await run([
    'invite',
    '1001',
    '--email',
    'left@hints.example',
    '--name',
    'Left',
    '--json',
    'testInvitationId',
  ]);
  const id = String(JSON.parse(invited.stdout).testInvitationId);
  await s.control('POST', `/invitations/${id}/simulate`, { to: 'leave' });
  const r = await run(['attempts', 'wait', id, '--until', 'any-terminal', '--exit-status']);
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toMatch(/ended Test Left: reached any-terminal, but not Complete \(--exit-status\)/);
  expect(r.stderr).not.toMatch(/cannot reach any-terminal/);
});

it('a second report export --since-last-run with nothing new keeps the last summary (not a header only)', async () => {
  const out = join(work.dir, 'nightly');
  // the journal is in the profile's store: both nights have the same config dir
  const cfg = join(work.dir, 'nightly-config');
  const night = (args: string[]) => runAssess(args, { env: s.env, cwd: work.dir, configDir: cfg });
  const first = await night(['report', 'export', '--from', '30d', '--to', 'now', '--out', out]);
  expect(first.code, first.stderr).toBe(0);
  const before = readFileSync(join(out, 'summary.csv'), 'utf8');
  expect(before.split('\n').length).toBeGreaterThan(2);
  const second = await night(['report', 'export', '--since-last-run', '--out', out, '--json', 'done,summary']);
  expect(second.code, second.stderr).toBe(0);
  expect(readFileSync(join(out, 'summary.csv'), 'utf8')).toBe(before);
  expect(second.stderr).toMatch(/Nothing new since the last run: .*summary\.csv .*is left as it was/);
  // the last run's summary, kept: it is the one there is
  expect(JSON.parse(second.stdout)).toEqual({ done: 0, summary: join(out, 'summary.csv') });
});
