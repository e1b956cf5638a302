// `assess store`: where the profile's store is, its integrity check (exit 1 naming what SQLite
// found), a consistent backup (0600, never over a file, also while a writer is active), its
// parts and tables; a profile with no store yet (exit 4); and the one-line notice about an
// older assess's NDJSON inbox, left untouched.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { Inbox } from '../../src/commands/callbacks/shared/inbox.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { profileStore } from '../helpers/inbox-store.js';

const t = tempDir('assess-store-cmd-');
afterAll(() => t.cleanup());
const run = (args: string[], configDir = t.dir) => runInProcess(args, { configDir });

async function fill(path: string, n: number) {
  const inbox = Inbox.open(path);
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      inbox.addNotification({
        raw: Buffer.from(JSON.stringify({ TestInvitationId: 1000 + i, Status: 'Complete' })),
        headers: {},
        at: new Date(),
      }),
    ),
  );
  return inbox;
}

describe('assess store', () => {
  it('path names the profile store; check and info say there is none yet (exit 4)', async () => {
    const own = tempDir();
    try {
      const p = await run(['store', 'path'], own.dir);
      expect(p.stdout.trim()).toBe(profileStore(own.dir));
      const c = await run(['store', 'check'], own.dir);
      expect(c.code).toBe(4);
      expect(c.stderr).toMatch(/no store at .*default\.db yet: this profile has kept nothing so far/);
      expect(existsSync(profileStore(own.dir))).toBe(false); // looking creates nothing
    } finally {
      own.cleanup();
    }
  });

  it('check passes a sound store, and names what SQLite finds in a damaged one (exit 1)', async () => {
    const path = profileStore(t.dir);
    (await fill(path, 5)).close();
    const ok = await run(['store', 'check']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toMatch(/default\.db: ok \(integrity check passed\)/);

    const damaged = join(t.dir, 'damaged.db');
    (await fill(damaged, 5)).close();
    const unguarded = { open: true, defensive: false }; // writable_schema, which node:sqlite refuses by default
    const db = new DatabaseSync(damaged, unguarded);
    // an index that no longer matches its table: what a torn page does to a file
    db.exec(`PRAGMA writable_schema = ON;
      UPDATE sqlite_schema SET sql = 'CREATE INDEX callbacks_notification_status ON callbacks_notification (received_ms, status_key)'
      WHERE name = 'callbacks_notification_status'`);
    db.close();
    const bad = await run(['store', 'check', '--store', damaged]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/damaged\.db is damaged: .*index callbacks_notification_status/);
    expect(bad.stderr).toMatch(/restore a backup \(assess store backup makes one\)/);
  });

  it('backup copies consistently while a writer is active, 0600, and never replaces a file', async () => {
    const path = join(t.dir, 'live.db');
    const writer = await fill(path, 50);
    const pending = fill(path, 0).then(() =>
      writer.addNotification({ raw: Buffer.from('{}'), headers: {}, at: new Date() }),
    );
    const to = join(t.dir, 'copies', 'b1.db');
    mkdirSync(join(t.dir, 'copies'));
    const r = await run(['store', 'backup', to, '--store', path]);
    expect(r.code, r.stderr).toBe(0);
    await pending;
    writer.close();
    expect(statSync(to).mode & 0o777).toBe(0o600);
    const copy = new DatabaseSync(to);
    expect(Number(copy.prepare('SELECT count(*) AS n FROM callbacks_notification').get()!.n)).toBeGreaterThanOrEqual(
      50,
    );
    copy.close();
    expect((await run(['store', 'check', '--store', to])).code).toBe(0);
    const again = await run(['store', 'backup', to, '--store', path]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/b1\.db exists; a backup never replaces a file/);
  });

  it('info lists the parts with their versions and the rows per table', async () => {
    const path = join(t.dir, 'info.db');
    (await fill(path, 3)).close();
    const r = await run(['store', 'info', '--store', path, '--json', 'parts,tables']);
    expect(r.code, r.stderr).toBe(0);
    const info = JSON.parse(r.stdout) as { parts: Record<string, number>; tables: Record<string, number> };
    expect(info.parts).toEqual({ callbacks: 1 });
    expect(info.tables.callbacks_notification).toBe(3);
  });
});

describe('an inbox of an older assess', () => {
  it('is named in a one-line notice, not read, and left as it is', async () => {
    const own = tempDir();
    try {
      mkdirSync(join(own.dir, 'inbox'));
      const old = join(own.dir, 'inbox', 'default.ndjson');
      const text = '{"type":"notification","invitationId":"1"}\n';
      writeFileSync(old, text);
      const r = await run(['callbacks', 'inbox', '--json'], own.dir);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([]);
      const notes = r.stderr.split('\n').filter((l) => l.includes(old));
      expect(notes).toEqual([
        `Note: ${old} is from an older assess (NDJSON); it is no longer read and was left as it is.`,
      ]);
      expect(readFileSync(old, 'utf8')).toBe(text);
    } finally {
      own.cleanup();
    }
  });
});
