// `callbacks listen` as a service, with the built binary: curl against /healthz, /readyz and
// /metrics; the token in an Authorization header as well as the query; no plain HTTP on an
// address others reach without --insecure-http; its own HTTPS, the certificate reloaded on SIGHUP
// (the listener's own handling of it: it keeps running); --log-format json; SIGTERM leaves what
// is not forwarded yet queued in the store.
import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { get } from 'node:https';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { queuedForwards } from '../helpers/inbox-store.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

const work = tempDir('assess-listen-service-');
afterAll(() => work.cleanup());
const curl = (...args: string[]) => execFileSync('curl', ['-s', '-S', ...args], { encoding: 'utf8' });
const post = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers, body: JSON.stringify({ TestInvitationId: 4242, Status: 'Complete' }) });

describe('probes, token, exposure', () => {
  it('curl: /healthz and /readyz answer without the token, /metrics counts what came', async () => {
    const l = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--token', 's3cret'], {
      configDir: work.dir,
    });
    try {
      const url = new URL(await l.firstLine());
      const base = `${url.origin}`;
      expect((await post(`${base}/hook`, { authorization: 'Bearer s3cret' })).status).toBe(200);
      expect((await post(url.toString())).status).toBe(200); // ?token= still works
      expect((await post(`${base}/hook`)).status).toBe(401);
      expect((await post(`${base}/hook`, { authorization: 'Bearer wrong' })).status).toBe(401);
      expect(JSON.parse(curl(`${base}/healthz`))).toEqual({ status: 'ok' });
      expect(JSON.parse(curl(`${base}/readyz`))).toEqual({ store: 'writable', forward: null });
      const metrics = curl(`${base}/metrics`);
      expect(metrics).toMatch(/^# HELP assess_listen_received_total /m);
      expect(metrics).toMatch(/^assess_listen_stored_total 2$/m);
      expect(metrics).toMatch(/^assess_listen_duplicates_total 1$/m);
      expect(metrics).toMatch(/^assess_listen_refused_total\{reason="token"\} 2$/m);
      expect(metrics).toMatch(/^assess_listen_store_seconds_count 2$/m);
    } finally {
      await l.stop();
    }
  });

  it('refuses plain HTTP on an address other machines reach, unless --insecure-http', async () => {
    const r = await runAssess(['callbacks', 'listen', '--host', '0.0.0.0', '--port', '0', '--no-inbox']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--host: 0\.0\.0\.0 is reached from other machines/);
    expect(r.stderr).toMatch(/--tls-cert FILE --tls-key FILE.*--insecure-http/);
    const half = await runAssess(['callbacks', 'listen', '--port', '0', '--tls-cert', 'x.pem']);
    expect(half.code).toBe(2);
    expect(half.stderr).toMatch(/--tls-key: give --tls-cert and --tls-key together/);
  });
});

function selfSigned(name: string): { cert: string; key: string } {
  const cert = join(work.dir, `${name}.crt`);
  const key = join(work.dir, `${name}.key`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

const servedName = (port: number) =>
  new Promise<string>((resolve, reject) => {
    const req = get({ host: '127.0.0.1', port, path: '/healthz', rejectUnauthorized: false, agent: false }, (res) => {
      const cn = String((res.socket as import('node:tls').TLSSocket).getPeerCertificate().subject.CN);
      res.resume();
      resolve(cn);
    });
    req.on('error', reject);
  });

describe('HTTPS of its own', () => {
  it('serves the certificate, reloads it on SIGHUP and keeps running; a bad pair is exit 2', async () => {
    const a = selfSigned('first');
    const b = selfSigned('second');
    const cert = join(work.dir, 'live.crt');
    const key = join(work.dir, 'live.key');
    copyFileSync(a.cert, cert);
    copyFileSync(a.key, key);
    const l = spawnAssess(
      [
        'callbacks',
        'listen',
        '--port',
        '0',
        '--print-url',
        '--tls-cert',
        cert,
        '--tls-key',
        key,
        '--log-format',
        'json',
      ],
      { configDir: work.dir },
    );
    try {
      const url = new URL(await l.firstLine());
      expect(url.protocol).toBe('https:');
      expect(await servedName(Number(url.port))).toBe('first');
      copyFileSync(b.cert, cert);
      copyFileSync(b.key, key);
      l.child.kill('SIGHUP');
      await waitFor(() => /TLS certificate reloaded/.test(l.stderr()), { what: 'the reload' });
      expect(await servedName(Number(url.port))).toBe('second');
      expect(l.child.exitCode).toBeNull();
      const lines = l
        .stderr()
        .trim()
        .split('\n')
        .map((x) => JSON.parse(x) as { level: string; msg: string; time: string });
      expect(lines.some((x) => x.level === 'info' && /^Listening for notifications on https:/.test(x.msg))).toBe(true);
    } finally {
      await l.stop();
    }
    const bad = await runAssess(['callbacks', 'listen', '--port', '0', '--tls-cert', a.cert, '--tls-key', b.key]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--tls-cert\/--tls-key: cannot use/);
  });
});

describe('SIGTERM', () => {
  it('stops accepting and leaves what is not forwarded yet queued in the store', async () => {
    const store = join(work.dir, 'term.db');
    const l = spawnAssess(
      [
        'callbacks',
        'listen',
        '--port',
        '0',
        '--print-url',
        '--store',
        store,
        '--forward-to',
        'http://127.0.0.1:9/down',
      ],
      { configDir: work.dir },
    );
    const url = await l.firstLine();
    for (let i = 0; i < 3; i++) expect((await post(url)).status).toBe(200);
    const r = await l.stop('SIGTERM');
    expect(r.code).toBe(143);
    expect(l.stderr()).toMatch(/3 notification\(s\) not forwarded yet stay queued in .*term\.db/);
    expect(queuedForwards(store)).toBe(3);
  });
});
