// `callbacks listen` and its secrets. An --exec command no longer
// inherits the API key, the webhook secret or the token; the token can come from a file or
// the environment, since a --token on the command line is visible to every user in `ps`.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';
import { completionBody } from '../helpers/completion-body.js';

const work = tempDir('assess-listen-secrets-');
afterAll(() => work.cleanup());

const KEY = 'sk_listen_secret_key_0123456789';
const WEBHOOK_SECRET = 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0';
const body = (id: number) => JSON.stringify(completionBody(id));
const post = (url: string, id = 7) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(id) });

describe('callbacks listen --exec', () => {
  it('runs the command without ASSESS_API_KEY, the webhook secret or the token in its environment', async () => {
    const out = join(work.dir, 'exec-env.txt');
    const l = spawnAssess(
      [
        'callbacks',
        'listen',
        '--port',
        '0',
        '--print-url',
        '--no-inbox',
        '--exec',
        `env > '${out}.part' && mv '${out}.part' '${out}'`,
      ],
      {
        env: {
          ASSESS_API_KEY: KEY,
          ASSESS_WEBHOOK_SECRET: WEBHOOK_SECRET,
          ASSESS_LISTEN_TOKEN: 'tok-env-1',
          KEEP_ME: 'yes',
        },
      },
    );
    try {
      const url = await l.firstLine();
      expect(new URL(url).searchParams.get('token')).toBe('tok-env-1'); // the token from the environment
      expect((await post(url)).status).toBe(200);
      // the hook writes aside and renames: a file that is there is whole
      await waitFor(() => existsSync(out), { what: 'the --exec run' });
      const env = readFileSync(out, 'utf8');
      expect(env).toMatch(/^ASSESS_EVENT_INVITATION_ID=7$/m);
      expect(env).toMatch(/^KEEP_ME=yes$/m);
      expect(env).not.toContain(KEY);
      expect(env).not.toContain(WEBHOOK_SECRET);
      expect(env).not.toMatch(/^ASSESS_(API_KEY|WEBHOOK_SECRET|LISTEN_TOKEN)=/m);
      expect(env).not.toContain('tok-env-1');
    } finally {
      await l.stop();
    }
  });
});

describe('callbacks listen: the token', () => {
  it('--token on the command line works and warns that ps shows it', async () => {
    const l = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--no-inbox', '--token', 's3cret-cli']);
    try {
      await l.firstLine();
      expect(l.stderr()).toMatch(
        /warning: --token: a token on the command line is visible to other users \(ps\).*--token-file/,
      );
    } finally {
      await l.stop();
    }
  });

  it('--token-file: the token from a file, no warning for a 0600 file; requests without it get 401', async () => {
    const file = join(work.dir, 'listen.token');
    writeFileSync(file, 'tok-from-file\n', { mode: 0o600 });
    chmodSync(file, 0o600);
    const l = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--no-inbox', '--token-file', file]);
    try {
      const url = await l.firstLine();
      expect(new URL(url).searchParams.get('token')).toBe('tok-from-file');
      expect((await post(url.split('?')[0]!)).status).toBe(401);
      expect((await post(url)).status).toBe(200);
      expect(l.stderr()).not.toMatch(/other users|--token:/);
    } finally {
      await l.stop();
    }
  });

  it('--token-file of mode 0644 is used with a warning; --token and --token-file together are refused', async () => {
    const file = join(work.dir, 'open.token');
    writeFileSync(file, 'tok-open\n');
    chmodSync(file, 0o644);
    const l = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--no-inbox', '--token-file', file]);
    try {
      await l.firstLine();
      expect(l.stderr()).toMatch(
        new RegExp(
          `warning: ${file} holds the listener's token and other users can read it \\(mode 0644\\); restrict it: ` +
            `chmod 600`,
        ),
      );
    } finally {
      await l.stop();
    }
    const both = spawnAssess(['callbacks', 'listen', '--port', '0', '--token', 'a', '--token-file', file]);
    const r = await both.done;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--token and --token-file cannot be used together/);
  });
});
