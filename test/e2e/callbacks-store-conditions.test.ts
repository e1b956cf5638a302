// Every callbacks command on a store it cannot use ends in exit 2 with the file, the cause and the
// fix — never a stack trace, never exit 0 after losing a write: a truncated, corrupt or foreign
// file, a schema from a newer assess, a store held past the busy timeout, a read-only file system
// and a full one. Readers (inbox, verify --inbox) go on while another process writes.
import { copyFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Inbox } from '../../src/commands/callbacks/shared/inbox.js';
import { runAssess, tempDir } from '../helpers/cli.js';
import { startServer } from '../helpers/http-server.js';
import { mountTmpfs, unmountable } from '../helpers/tmpfs.js';

const work = tempDir('assess-conditions-');
let target: Awaited<ReturnType<typeof startServer>>;
let healthy = '';

const body = (id: number) => JSON.stringify({ TestInvitationId: id, Status: 'Complete', padding: 'x'.repeat(3000) });

/** A store with a few notifications, forwarded to `target` (replay's default). */
async function makeStore(path: string, n = 20): Promise<void> {
  const inbox = Inbox.open(path);
  for (let i = 1; i <= n; i++)
    await inbox.addNotification({
      raw: Buffer.from(body(900000 + i)),
      headers: { 'content-type': 'application/json' },
      at: new Date(),
      forwardTo: `${target.url}/app`,
    });
  inbox.close();
}

/** Each command, on the store at `path`; listen exits on its own when the store is refused. */
const COMMANDS: Array<[string, (path: string) => string[]]> = [
  ['listen', (p) => ['callbacks', 'listen', '--port', '0', '--store', p]],
  ['inbox', (p) => ['callbacks', 'inbox', '--store', p, '--json']],
  ['inbox --failed', (p) => ['callbacks', 'inbox', '--failed', '--store', p, '--json']],
  ['replay', (p) => ['callbacks', 'replay', '900001', '--store', p]],
  ['reconcile', (p) => ['callbacks', 'reconcile', '--from', '1d', '--to', 'now', '--store', p]],
  ['verify --inbox', (p) => ['callbacks', 'verify', '--store', p]],
];

async function expectRefusal(args: string[], file: string, cause: RegExp, fix: RegExp, env = {}) {
  const r = await runAssess(args, {
    configDir: work.dir,
    env: { ASSESS_API_KEY: 'k-0123456789abcdef', ASSESS_BASE_URL: 'http://127.0.0.1:9', ...env },
    timeoutMs: 20_000,
  });
  expect(r.signal, `${args.join(' ')}: it must end by itself`).toBeNull();
  expect(r.code, r.stderr).toBe(2);
  const [first, second] = r.stderr.trim().split('\n');
  expect(first).toContain(file);
  expect(first).toMatch(cause);
  expect(second).toMatch(fix);
  expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
}

beforeAll(async () => {
  target = await startServer((_r, res) => res.writeHead(200).end());
  healthy = join(work.dir, 'healthy.db');
  await makeStore(healthy);
});
afterAll(async () => {
  await target?.close();
  work.cleanup();
});

describe('a file that is not a usable store', () => {
  const cases: Array<[string, (path: string) => void, RegExp, RegExp]> = [
    [
      'truncated',
      (p) => {
        copyFileSync(healthy, p);
        truncateSync(p, Math.floor(statSync(p).size / 2));
      },
      /database disk image is malformed/,
      /restore a backup \(assess store backup\)/,
    ],
    [
      'corrupt',
      (p) => writeFileSync(p, Buffer.alloc(8192, 'not a database at all ')),
      /file is not a database/,
      /move it away, or choose another file/,
    ],
    [
      'foreign',
      (p) => {
        const db = new DatabaseSync(p);
        db.exec('CREATE TABLE songs (title TEXT); INSERT INTO songs VALUES (1)');
        db.close();
      },
      /a SQLite database of another program/,
      /choose another file/,
    ],
    [
      'from a newer assess',
      (p) => {
        copyFileSync(healthy, p);
        const db = new DatabaseSync(p);
        db.exec("UPDATE assess_schema SET version = 99 WHERE part = 'callbacks'");
        db.close();
      },
      /a newer assess made it \(callbacks schema 99, this one knows 1\)/,
      /upgrade assess/,
    ],
  ];
  for (const [what, make, cause, fix] of cases)
    it.each(COMMANDS)(`${what}: %s exits 2 naming the file, the cause and the fix`, async (_name, argv) => {
      const path = join(work.dir, `${what.replace(/\W+/g, '-')}-${_name.replace(/\W+/g, '-')}.db`);
      make(path);
      await expectRefusal(argv(path), path, cause, fix);
    });
});

describe('a store another process holds past the busy timeout', () => {
  it.each([
    ['listen', COMMANDS[0]![1]],
    ['replay', COMMANDS[3]![1]],
  ] as const)('%s (a writer) exits 2: busy, raise ASSESS_BUSY_TIMEOUT', async (name, argv) => {
    const path = join(work.dir, `busy-${name}.db`);
    copyFileSync(healthy, path);
    const hold = new DatabaseSync(path);
    hold.exec('BEGIN IMMEDIATE');
    try {
      await expectRefusal(argv(path), path, /it is busy: another assess process held it/, /ASSESS_BUSY_TIMEOUT/, {
        ASSESS_BUSY_TIMEOUT: '0.2',
      });
    } finally {
      hold.exec('ROLLBACK');
      hold.close();
    }
  });

  it('readers go on: callbacks inbox lists what is committed while another process writes', async () => {
    const path = join(work.dir, 'busy-reader.db');
    copyFileSync(healthy, path);
    const hold = new DatabaseSync(path);
    hold.exec(
      "BEGIN IMMEDIATE; DELETE FROM callbacks_forward WHERE seq = 1; UPDATE callbacks_notification SET status = 'x'",
    );
    try {
      const r = await runAssess(['callbacks', 'inbox', '--store', path, '--json', 'status'], {
        configDir: work.dir,
        env: { ASSESS_BUSY_TIMEOUT: '0.2' },
      });
      expect(r.code, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as Array<{ status: string }>).every((x) => x.status === 'Complete')).toBe(true);
    } finally {
      hold.exec('ROLLBACK');
      hold.close();
    }
  });
});

const skip = unmountable();
if (skip) console.warn(`callbacks-store-conditions.test.ts (tmpfs part) skipped: ${skip}`);

describe.skipIf(skip !== null)('a read-only or full file system', () => {
  it.each(COMMANDS)('read-only: %s exits 2 (read-only, make it writable)', async (_name, argv) => {
    const t = mountTmpfs('1m');
    try {
      const path = join(t.dir, 'store.db');
      await makeStore(path, 3);
      t.readOnly();
      await expectRefusal(argv(path), path, /read-only|cannot open it/, /writable|permissions/);
    } finally {
      t.close();
    }
  });

  it.each([
    ['listen', COMMANDS[0]![1]],
    ['replay', COMMANDS[3]![1]],
  ] as const)('full: %s exits 2 (no space left, free space)', async (_name, argv) => {
    const t = mountTmpfs('1m');
    try {
      const path = join(t.dir, 'store.db');
      await makeStore(path, 3);
      t.fill();
      await expectRefusal(argv(path), path, /no space left on the device/, /free space there/);
    } finally {
      t.close();
    }
  });
});
