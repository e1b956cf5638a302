// Standard Webhooks signing: the spec's published test vector, verification (tampering,
// tolerance, several signatures, wrong secret) and the per-profile secret (generated once, 0600).
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  resolveSecret,
  secretKey,
  sign,
  signatureHeaders,
  verify,
} from '../../src/commands/callbacks/shared/signing.js';

// temp dirs of this file, removed when it is done
const made: string[] = [];
const madeDir = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
};
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

// https://github.com/standard-webhooks/standard-webhooks (spec test vector)
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  payload: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const headersOf = (sig = VECTOR.signature, ts = String(VECTOR.timestamp)) => ({
  'webhook-id': VECTOR.id,
  'webhook-timestamp': ts,
  'webhook-signature': sig,
});
const at = (s: number) => new Date(s * 1000);

describe('Standard Webhooks signature', () => {
  it('matches the published test vector', () => {
    expect(sign(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.payload)).toBe(VECTOR.signature);
    expect(sign(VECTOR.secret, VECTOR.id, VECTOR.timestamp, Buffer.from(VECTOR.payload))).toBe(VECTOR.signature);
    expect(secretKey(VECTOR.secret)).toEqual(Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64'));
  });

  it('verifies the vector at its time, and refuses a changed body, id or secret', () => {
    const body = Buffer.from(VECTOR.payload);
    expect(verify(VECTOR.secret, headersOf(), body, at(VECTOR.timestamp))).toEqual({ ok: true });
    expect(verify(VECTOR.secret, headersOf(), Buffer.from('{"test": 2432232315}'), at(VECTOR.timestamp))).toEqual({
      ok: false,
      reason: 'no signature matches',
    });
    expect(verify(VECTOR.secret, { ...headersOf(), 'webhook-id': 'msg_other' }, body, at(VECTOR.timestamp)).ok).toBe(
      false,
    );
    expect(verify('whsec_' + Buffer.alloc(24, 1).toString('base64'), headersOf(), body, at(VECTOR.timestamp)).ok).toBe(
      false,
    );
  });

  it('accepts any one of several space-separated signatures; ignores unknown versions', () => {
    const body = Buffer.from(VECTOR.payload);
    expect(
      verify(VECTOR.secret, headersOf(`v1,bm90IGl0 v2,xyz ${VECTOR.signature}`), body, at(VECTOR.timestamp)).ok,
    ).toBe(true);
    expect(verify(VECTOR.secret, headersOf('v2,' + VECTOR.signature.slice(3)), body, at(VECTOR.timestamp)).ok).toBe(
      false,
    );
  });

  it('refuses a timestamp outside the tolerance (either side); 0 switches the check off', () => {
    const body = Buffer.from(VECTOR.payload);
    expect(verify(VECTOR.secret, headersOf(), body, at(VECTOR.timestamp + 301)).ok).toBe(false);
    expect(verify(VECTOR.secret, headersOf(), body, at(VECTOR.timestamp - 301)).ok).toBe(false);
    expect(verify(VECTOR.secret, headersOf(), body, at(VECTOR.timestamp + 299)).ok).toBe(true);
    expect(verify(VECTOR.secret, headersOf(), body, at(VECTOR.timestamp + 86_400), 0).ok).toBe(true);
    expect(verify(VECTOR.secret, { 'webhook-id': VECTOR.id }, body, at(VECTOR.timestamp))).toEqual({
      ok: false,
      reason: 'missing header webhook-timestamp',
    });
  });

  it('signatureHeaders produce what verify accepts', () => {
    const body = Buffer.from('{"TestInvitationId":5001,"Status":"Complete"}');
    const now = new Date('2026-03-01T10:00:00Z');
    const h = signatureHeaders(VECTOR.secret, 'msg_abc', body, now);
    expect(h['webhook-timestamp']).toBe(String(Date.parse('2026-03-01T10:00:00Z') / 1000));
    expect(h['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verify(VECTOR.secret, h, body, now).ok).toBe(true);
  });
});

describe('the signing secret', () => {
  it('is generated once per profile (whsec_, 0600), then reused; --secret-file and the environment win', async () => {
    const dir = madeDir('assess-secret-');
    const first = await resolveSecret({ env: {}, configDir: dir, profile: 'default', create: true });
    expect(first.created).toBe(true);
    expect(first.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    expect(statSync(first.source).mode & 0o777).toBe(0o600);
    const again = await resolveSecret({ env: {}, configDir: dir, profile: 'default', create: true });
    expect(again).toMatchObject({ secret: first.secret, created: false });
    const other = await resolveSecret({ env: {}, configDir: dir, profile: 'ci', create: true });
    expect(other.secret).not.toBe(first.secret);
    expect(
      (
        await resolveSecret({
          env: { ASSESS_WEBHOOK_SECRET: VECTOR.secret },
          configDir: dir,
          profile: 'default',
          create: true,
        })
      ).secret,
    ).toBe(VECTOR.secret);
    const file = join(dir, 'given.secret');
    writeFileSync(file, `${VECTOR.secret}\n`);
    expect(
      (
        await resolveSecret({
          secretFile: file,
          env: { ASSESS_WEBHOOK_SECRET: 'x' },
          configDir: dir,
          profile: 'default',
          create: true,
        })
      ).secret,
    ).toBe(VECTOR.secret);
    expect(readFileSync(first.source, 'utf8').trim()).toBe(first.secret);
  });

  it('a missing, empty or malformed secret file is a usage error; no secret and no creation is one too', async () => {
    const dir = madeDir('assess-secret-');
    await expect(
      resolveSecret({ secretFile: join(dir, 'nope'), env: {}, configDir: dir, profile: 'p', create: true }),
    ).rejects.toThrow(/--secret-file: cannot read .*ENOENT/);
    writeFileSync(join(dir, 'empty'), '\n');
    await expect(
      resolveSecret({ secretFile: join(dir, 'empty'), env: {}, configDir: dir, profile: 'p', create: true }),
    ).rejects.toThrow(/is empty/);
    writeFileSync(join(dir, 'short'), 'whsec_YWJj\n');
    await expect(
      resolveSecret({ secretFile: join(dir, 'short'), env: {}, configDir: dir, profile: 'p', create: true }),
    ).rejects.toThrow(/not hold a valid whsec_ secret/);
    await expect(resolveSecret({ env: {}, configDir: dir, profile: 'p', create: false })).rejects.toThrow(
      /no signing secret/,
    );
  });
});
