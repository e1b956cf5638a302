// `callbacks listen` acknowledges (200) only what its store committed. On a disk that fills up, a
// transaction that does not fit is rolled back by SQLite and its request answered 503 (the
// service tries again); every 200 is a notification in the store, the store passes its integrity
// check, and a retry after space is freed is stored and acknowledged.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { storedNotifications } from '../helpers/inbox-store.js';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { spawnAssess } from '../helpers/spawn.js';
import { mountTmpfs, unmountable, type Tmpfs } from '../helpers/tmpfs.js';
import { completionBody } from '../helpers/completion-body.js';

const skip = unmountable();
if (skip) console.warn(`listen-full-disk.test.ts skipped: ${skip}`);

const body = (id: number) =>
  completionBody(id, `c${id}@inbox.full.example`, {
    // records of ~7 KB that do not fall on page boundaries: the disk takes part of one
    padding: 'x'.repeat(7000 + id),
  });

describe.skipIf(skip !== null)('callbacks listen on a full disk acknowledges only what was stored', () => {
  let t: Tmpfs | undefined;
  afterAll(() => t?.close());

  it('answers 200 only for notifications committed, 503 for the rest; the store stays whole', async () => {
    t = mountTmpfs('320k');
    const store = join(t.dir, 'callbacks.db');
    writeFileSync(join(t.dir, 'spare'), Buffer.alloc(96 * 1024)); // freed later
    const l = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--store', store]);
    onTestFinished(async () => void (await l.stop('SIGKILL'))); // also when an expectation fails
    const url = await l.firstLine();
    const answers: number[] = [];
    for (let i = 1; i <= 40; i++) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body(i)),
      });
      answers.push(res.status);
      if (res.status === 503) expect(await res.text()).toMatch(/no space left on the device/);
    }
    const ok = answers.flatMap((s, i) => (s === 200 ? [i + 1] : []));
    expect(ok.length).toBeGreaterThan(0);
    expect(ok.length).toBeLessThan(40);
    for (const s of answers) expect([200, 503]).toContain(s);
    const stored = () => storedNotifications(store).map((n) => Number(n.invitationId));
    expect(stored()).toEqual(ok); // every 200 is in the store, whole; nothing else is

    // space freed: the service's retry of a refused one is stored and acknowledged
    const refused = answers.indexOf(503) + 1;
    rmSync(join(t.dir, 'spare'));
    const again = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body(refused)),
    });
    expect(again.status).toBe(200);
    await l.stop('SIGINT');
    expect(stored().at(-1)).toBe(refused);
    const check = await runAssess(['store', 'check', '--store', store]);
    expect(check.code, check.stderr).toBe(0);
  });
});

describe('a store that is not a regular file is refused at once (exit 2)', () => {
  it.each([
    ['a FIFO', 'fifo'],
    ['a device', '/dev/null'],
  ])('%s: exit 2 at once for listen and for callbacks inbox, nothing waits', async (_name, which) => {
    const cfg = tempDir();
    try {
      const path = which === 'fifo' ? join(cfg.dir, 'inbox.fifo') : which;
      if (which === 'fifo') spawnSync('mkfifo', [path]);
      const listen = await runAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--store', path], {
        configDir: cfg.dir,
        timeoutMs: 15_000,
      });
      expect(listen.signal).toBeNull(); // ended by itself, not by the harness's kill
      expect(listen.code).toBe(2);
      expect(listen.stderr).toContain(`cannot use the callbacks store ${path}: not a regular file`);
      const read = await runAssess(['callbacks', 'inbox', '--store', path], { configDir: cfg.dir, timeoutMs: 15_000 });
      expect(read.signal).toBeNull();
      expect(read.code).toBe(2);
      expect(read.stderr).toContain(`cannot use the callbacks store ${path}: not a regular file`);
    } finally {
      cfg.cleanup();
    }
  });
});
