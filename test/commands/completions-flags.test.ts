// Flags of the "never miss a completion" commands: each bad one is a usage error (exit 2) naming
// the flag, before anything is started or sent; `listen --print-secret` makes the per-profile
// secret once (0600) and prints the same one again.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { tempDir } from '../helpers/cli.js';
import { memoryProcess } from '../helpers/memory-io.js';

const t = tempDir();
afterAll(() => t.cleanup());
async function run(argv: string[], env: Record<string, string> = {}) {
  const p = memoryProcess({
    ASSESS_CONFIG_DIR: t.dir,
    CI: 'true',
    NO_COLOR: '1',
    ASSESS_BASE_URL: 'http://127.0.0.1:9',
    ASSESS_API_KEY: 'k-0123456789abcdef',
    ...env,
  });
  const code = await runCli(argv, p);
  return { code, out: p.out(), err: p.err() };
}

describe('bad flags → exit 2, naming the flag', () => {
  const notRequest = join(t.dir, 'not-request.json');
  writeFileSync(notRequest, '{"hello": 1}');
  writeFileSync(join(t.dir, 'empty.json'), '');
  it.each([
    [['callbacks', 'listen', '--sign'], /--sign: signs what --forward-to sends/],
    [['callbacks', 'listen', '--secret-file', 'x'], /--secret-file: only used with --sign or --print-secret/],
    [['callbacks', 'listen', '--forward-retries', 'many'], /--forward-retries: must be a whole number/],
    [['callbacks', 'listen', '--forward-retries', '99'], /--forward-retries: must be at most 20/],
    [['callbacks', 'listen', '--forward-timeout', '0'], /--forward-timeout: must be from 100ms to 10m/],
    [['callbacks', 'listen', '--forward-queue', '0'], /--forward-queue: must be at least 1/],
    [['callbacks', 'listen', '--forward-backoff', '1m'], /--forward-backoff: must be from 0s to 30s/],
    [['callbacks', 'inbox', '--since', 'last tuesday'], /--since: 'last tuesday' is not a time/],
    [['callbacks', 'replay'], /<ids>: name invitation ids or give --since/],
    [['callbacks', 'replay', '12x'], /<ids>: '12x' is not an invitation id/],
    [['callbacks', 'replay', '5001', '--to', 'not a url'], /--to:/],
    [['callbacks', 'replay', '5001', '--secret-file', 's'], /--secret-file: cannot read s/],
    [['callbacks', 'replay', '5001', '--no-sign', '--secret-file', 's'], /--secret-file: not used with --no-sign/],
    [
      ['callbacks', 'reconcile', '--from', '1d', '--to', 'now', '--cooldown', 'forever'],
      /--cooldown: must be a duration like 1h/,
    ],
    [['callbacks', 'reconcile', '--from', 'now', '--to', '1d'], /--to: must be after --from/],
    [['callbacks', 'verify', join(t.dir, 'missing.json'), '--secret-file', 'x'], /--secret-file: cannot read x/],
    [['callbacks', 'verify', notRequest, '--tolerance', 'a while'], /--tolerance: must be a duration like 5m/],
    [['attempts', 'wait', '5001', '--timeout', '50ms'], /--timeout: must be from 100ms to 720h/],
  ])('%j', async (argv, message) => {
    const r = await run(argv as string[]);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toMatch(message as RegExp);
    expect(r.out).toBe('');
  });

  it('verify: an empty file, or JSON that is not a stored request', async () => {
    const secret = join(t.dir, 'ok.secret');
    writeFileSync(secret, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw\n');
    expect((await run(['callbacks', 'verify', join(t.dir, 'empty.json'), '--secret-file', secret])).err).toMatch(
      /is empty/,
    );
    expect((await run(['callbacks', 'verify', notRequest, '--secret-file', secret])).err).toMatch(
      /not a stored request/,
    );
  });
});

describe('listen --print-secret', () => {
  it('generates the profile secret once (0600) and prints it; the same one the next time; another profile has its own', async () => {
    const a = await run(['callbacks', 'listen', '--print-secret']);
    expect(a.code, a.err).toBe(0);
    const secret = a.out.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    const file = join(t.dir, 'webhook-secrets', 'default.secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(secret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(a.err).toMatch(/Generated a signing secret/);
    expect((await run(['callbacks', 'listen', '--print-secret'])).out.trim()).toBe(secret);
    expect((await run(['--profile', 'ci', 'callbacks', 'listen', '--print-secret'])).out.trim()).not.toBe(secret);
    expect(
      (
        await run(['callbacks', 'listen', '--print-secret'], {
          ASSESS_WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        })
      ).out.trim(),
    ).toBe('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
  });
});
