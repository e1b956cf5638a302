// Bad conditions of the profile's store, as invite, invite --from-csv and report export meet them:
// a full disk, a read-only file system, a store held past the busy timeout, a truncated, corrupt
// or foreign file, a schema of a newer assess. Each is exit 2 naming the file, the cause and the
// fix, before anything is sent, never a stack trace.
import { mkdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { storeOf } from '../helpers/store.js';
import { mountTmpfs, unmountable, type Tmpfs } from '../helpers/tmpfs.js';

let s: TestSandbox;
const work = tempDir('assess-store-conditions-');
const mounts: Tmpfs[] = [];
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => {
  for (const m of mounts) m.close();
  await s?.close();
  work.cleanup();
});

const csv = join(work.dir, 'two.csv');
writeFileSync(csv, 'email,name\ncond1@example.com,Cond One\ncond2@example.com,Cond Two\n');
let n = 0;
const COMMANDS: Array<[string, () => string[]]> = [
  ['invite', () => ['invite', '1001', '--email', `single${++n}@example.com`, '--name', 'Single']],
  ['invite --from-csv', () => ['invite', '1001', '--from-csv', csv, '--results', join(work.dir, `r${++n}.ndjson`)]],
  ['report export', () => ['report', 'export', '--from', '30d', '--out', join(work.dir, `out${++n}`)]],
];

/** A config dir whose store a run made (so it exists, with every part), then `spoil` spoils. */
async function spoiled(dir: string, spoil: (store: string) => void): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const made = await runInProcess(['invite', '1001', '--from-csv', csv, '--dry-run'], { env: s.env, configDir: dir });
  expect(made.code, made.stderr).toBe(0);
  spoil(storeOf(dir));
  return dir;
}

async function refused(configDir: string, cause: RegExp, extraEnv: Record<string, string> = {}) {
  for (const [name, args] of COMMANDS) {
    await s.control('DELETE', '/requests');
    const r = await runInProcess(args(), { env: { ...s.env, ...extraEnv }, configDir });
    expect(r.code, `${name}: ${r.stderr}`).toBe(2);
    const [line, fix] = r.stderr.trim().split('\n').slice(-2);
    expect(line, name).toMatch(/^error: cannot (use|create) the (store|journal) /);
    expect(line, name).toContain(storeOf(configDir));
    expect(line, `${name}: ${line}`).toMatch(cause);
    expect(fix, name).toMatch(/^ {2}\S/);
    expect(r.stderr).not.toMatch(/looks like a bug|\n {4}at /);
    const sent = (await s.requests()).filter((q) => q.path.startsWith('/v3/') && q.path !== '/v3/tests/1001');
    expect(
      sent.map((q) => `${q.method} ${q.path}`),
      `${name} sent nothing`,
    ).toEqual([]);
  }
}

describe('a store that cannot be used: exit 2, the file, the cause, the fix, nothing sent', () => {
  it('truncated', async () => {
    const dir = await spoiled(join(work.dir, 'truncated'), (f) => truncateSync(f, Math.floor(statSync(f).size / 2)));
    await refused(dir, /database disk image is malformed|file is not a database/);
  });

  it('corrupt (not a database)', async () => {
    const dir = await spoiled(join(work.dir, 'corrupt'), (f) => writeFileSync(f, 'this is no database\n'.repeat(300)));
    await refused(dir, /file is not a database/);
  });

  it("another program's SQLite file", async () => {
    const dir = join(work.dir, 'foreign');
    mkdirSync(join(dir, 'store'), { recursive: true });
    const db = new DatabaseSync(storeOf(dir));
    db.exec('CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)');
    db.close();
    await refused(dir, /a SQLite database of another program/);
  });

  it('a schema of a newer assess', async () => {
    const dir = await spoiled(join(work.dir, 'newer'), (f) => {
      const db = new DatabaseSync(f);
      db.exec("INSERT OR REPLACE INTO assess_schema (part, version) VALUES ('ledger', 99), ('runs', 99)");
      db.close();
    });
    await refused(dir, /a newer assess made it \((ledger|runs) schema 99/);
  });

  it('held by another process past the busy timeout', async () => {
    const dir = await spoiled(join(work.dir, 'busy'), () => undefined);
    const holder = new DatabaseSync(storeOf(dir));
    holder.exec('BEGIN IMMEDIATE');
    try {
      await refused(dir, /it is busy: another assess process held it longer than the busy timeout/, {
        ASSESS_BUSY_TIMEOUT: '0.2',
      });
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });

  const skip = unmountable();
  it.skipIf(skip !== null)('a full disk', async () => {
    const t = mountTmpfs('256k');
    mounts.push(t);
    const dir = await spoiled(join(t.dir, 'config'), () => t.fill());
    await refused(dir, /no space left on the device/);
  });

  it.skipIf(skip !== null)('a read-only file system', async () => {
    const t = mountTmpfs('256k');
    mounts.push(t);
    const dir = await spoiled(join(t.dir, 'config'), () => t.readOnly());
    await refused(dir, /read-only|cannot open it/);
  });
});
