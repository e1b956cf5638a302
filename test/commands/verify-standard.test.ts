// `callbacks verify` and the signer against the official Standard Webhooks library (the
// `standardwebhooks` npm package), both ways, with its published test vector; secrets read as the
// libraries read them (with and without `whsec_`); junk after the base64 refused; a capture's
// fields read from its body; an old capture checked at its own time (--at, --tolerance 0) with a
// hint that names the time, not the secret.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { sign, signatureHeaders, verify } from '../../src/commands/callbacks/shared/signing.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

// the library's own vector (libraries/javascript/src/webhook.test.ts, "sign function works")
const VECTOR = {
  key: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  payload: '{"test": 2432232314}',
  expected: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const t = tempDir('assess-verify-std-');
afterAll(() => t.cleanup());

describe('Standard Webhooks, as the official library does it', () => {
  it('signs the published vector as the library does, with and without the whsec_ prefix', () => {
    expect(sign(VECTOR.key, VECTOR.id, VECTOR.timestamp, VECTOR.payload)).toBe(VECTOR.expected);
    expect(sign(VECTOR.key.slice('whsec_'.length), VECTOR.id, VECTOR.timestamp, VECTOR.payload)).toBe(VECTOR.expected);
    expect(new Webhook(VECTOR.key).sign(VECTOR.id, new Date(VECTOR.timestamp * 1000), VECTOR.payload)).toBe(
      VECTOR.expected,
    );
  });

  it('what assess signs the library verifies, and what the library signs assess verifies', () => {
    const now = new Date();
    for (const secret of [VECTOR.key, VECTOR.key.slice('whsec_'.length)]) {
      const body = Buffer.from('{"TestInvitationId":900001,"Status":"Complete"}');
      const ours = signatureHeaders(secret, 'msg_ours', body, now);
      expect(() => new Webhook(secret).verify(body.toString(), ours)).not.toThrow();
      const ts = Math.floor(now.getTime() / 1000);
      const theirs = {
        'webhook-id': 'msg_theirs',
        'webhook-timestamp': String(ts),
        'webhook-signature': new Webhook(secret).sign('msg_theirs', new Date(ts * 1000), body.toString()),
      };
      expect(verify(secret, theirs, body, now)).toEqual({ ok: true });
    }
  });

  it('refuses junk after the base64 signature, as the library does', () => {
    const headers = {
      'webhook-id': VECTOR.id,
      'webhook-timestamp': String(VECTOR.timestamp),
      'webhook-signature': `${VECTOR.expected}junk`,
    };
    const at = new Date(VECTOR.timestamp * 1000);
    expect(verify(VECTOR.key, headers, Buffer.from(VECTOR.payload), at)).toEqual({
      ok: false,
      reason: 'no signature matches',
    });
    expect(() => new Webhook(VECTOR.key).verify(VECTOR.payload, headers)).toThrow();
  });
});

describe('callbacks verify on a capture', () => {
  const secretFile = join(t.dir, 'secret');
  writeFileSync(secretFile, `${VECTOR.key}\n`);
  const body = '{"TestInvitationId":900007,"Status":"Complete"}';
  const old = new Date('2026-03-01T10:00:00Z');
  const capture = join(t.dir, 'capture.ndjson');
  writeFileSync(
    capture,
    `${JSON.stringify({ headers: signatureHeaders(VECTOR.key, 'msg_old', Buffer.from(body), old), body })}\n`,
  );

  it('reads the invitation and status from a captured body', async () => {
    const r = await runInProcess([
      'callbacks',
      'verify',
      capture,
      '--secret-file',
      secretFile,
      '--tolerance',
      '0',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { id: 'msg_old', invitationId: 900007, status: 'Complete', valid: true, reason: null },
    ]);
  });

  it('an old capture fails on its time, with a hint naming the time; --at checks it at its own time', async () => {
    const late = await runInProcess(['callbacks', 'verify', capture, '--secret-file', secretFile]);
    expect(late.code).toBe(1);
    expect(late.stderr).toMatch(/webhook-timestamp is \d+ s away from when it was received \(tolerance 300 s\)/);
    expect(late.stderr).toMatch(
      /the timestamps are outside --tolerance 5m \(the signatures themselves match\): check a capture at its own time with --at T, or skip the time check with --tolerance 0/,
    );
    expect(late.stderr).not.toMatch(/check the secret/);
    const at = await runInProcess([
      'callbacks',
      'verify',
      capture,
      '--secret-file',
      secretFile,
      '--at',
      '2026-03-01T10:02:00Z',
    ]);
    expect(at.code, at.stderr).toBe(0);
  });
});
