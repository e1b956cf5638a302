// The store's own promises: a private WAL file, schemas migrated once per part, and every bad
// condition (a newer schema, a foreign, corrupt or truncated file, a busy file, a FIFO, a full or
// read-only disk) a usage error naming the file, the cause and the fix.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { Store, type Schema } from '../../src/store/db.js';
import { mountTmpfs, unmountable } from '../helpers/tmpfs.js';

const NOTES: Schema = {
  name: 'notes',
  migrations: ['CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)'],
};
const open = (path: string, schemas: Schema[] = [NOTES], busyTimeoutMs = 50) =>
  Store.open(path, schemas, { what: 'the test store', busyTimeoutMs });

let dir: string;
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'assess-store-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function refusal(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error('expected a refusal');
}

describe('opening a store', () => {
  it('creates a private WAL file in a private directory, marked as assess', () => {
    const path = join(dir, 'sub', 'x.db');
    const s = open(path);
    s.write((st) => st.sql('INSERT INTO notes (text) VALUES (?)').run('one'));
    s.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'sub')).mode & 0o777).toBe(0o700);
    const raw = new DatabaseSync(path);
    expect(raw.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(raw.prepare('PRAGMA application_id').get()).toEqual({ application_id: 0x61737373 });
    expect(raw.prepare('SELECT part, version FROM assess_schema').all()).toEqual([{ part: 'notes', version: 1 }]);
    raw.close();
  });

  it('runs each migration once, also when a part gains one later', () => {
    const path = join(dir, 'x.db');
    open(path).close();
    const grown: Schema = { ...NOTES, migrations: [...NOTES.migrations, 'ALTER TABLE notes ADD COLUMN at TEXT'] };
    const s = open(path, [grown]);
    s.write((st) => st.sql('INSERT INTO notes (text, at) VALUES (?, ?)').run('two', 'now'));
    s.close();
    const again = open(path, [grown]);
    expect(again.read((st) => st.sql('SELECT text, at FROM notes').all())).toEqual([{ text: 'two', at: 'now' }]);
    again.close();
  });

  it('keeps parts apart: a second part is added beside the first', () => {
    const path = join(dir, 'x.db');
    open(path).close();
    const other: Schema = { name: 'other', migrations: ['CREATE TABLE other (k TEXT PRIMARY KEY)'] };
    open(path, [NOTES, other]).close();
    const raw = new DatabaseSync(path);
    expect(raw.prepare('SELECT part FROM assess_schema ORDER BY part').all()).toEqual([
      { part: 'notes' },
      { part: 'other' },
    ]);
    raw.close();
  });

  it('a write that throws leaves nothing behind', () => {
    const s = open(join(dir, 'x.db'));
    expect(() =>
      s.write((st) => {
        st.sql('INSERT INTO notes (text) VALUES (?)').run('lost');
        throw new Error('changed my mind');
      }),
    ).toThrow('changed my mind');
    expect(s.read((st) => st.sql('SELECT count(*) AS n FROM notes').get())).toEqual({ n: 0 });
    s.close();
  });
});

describe('files it will not use', () => {
  it('a schema from a newer assess', () => {
    const path = join(dir, 'x.db');
    open(path).close();
    const raw = new DatabaseSync(path);
    raw.exec("UPDATE assess_schema SET version = 7 WHERE part = 'notes'");
    raw.close();
    const e = refusal(() => open(path));
    expect(e.message).toBe(
      `cannot use the test store ${path}: a newer assess made it (notes schema 7, this one knows 1)`,
    );
    expect(e.hint).toMatch(/upgrade assess/);
  });

  it('a file that is not a database', () => {
    const path = join(dir, 'x.db');
    writeFileSync(path, 'name,email\nAnn,ann@example.com\n'.repeat(100));
    const e = refusal(() => open(path));
    expect(e.message).toBe(`cannot use the test store ${path}: file is not a database`);
    expect(e.hint).toMatch(/move it away/);
  });

  it("another program's SQLite database, left as it is", () => {
    const path = join(dir, 'x.db');
    const raw = new DatabaseSync(path);
    raw.exec('CREATE TABLE songs (title TEXT)');
    raw.close();
    expect(refusal(() => open(path)).message).toMatch(/a SQLite database of another program$/);
    const check = new DatabaseSync(path);
    expect(check.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all()).toEqual([{ name: 'songs' }]);
    check.close();
  });

  it('a truncated file', () => {
    const path = join(dir, 'x.db');
    const s = open(path);
    s.write((st) => {
      for (let i = 0; i < 2000; i++) st.sql('INSERT INTO notes (text) VALUES (?)').run(`note ${i} `.repeat(20));
    });
    s.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    s.close();
    truncateSync(path, Math.floor(statSync(path).size / 2));
    const e = refusal(() => {
      const t = open(path);
      try {
        t.read((st) => st.sql('SELECT count(*), max(length(text)) FROM notes').get());
      } finally {
        t.close();
      }
    });
    expect(e.message).toMatch(/database disk image is malformed$/);
    expect(e.hint).toMatch(/restore a backup/);
  });

  it('a FIFO', () => {
    const path = join(dir, 'fifo');
    execFileSync('mkfifo', [path]);
    expect(refusal(() => open(path)).message).toBe(`cannot use the test store ${path}: not a regular file`);
  });

  it('a file held by another writer past the busy timeout', () => {
    const path = join(dir, 'x.db');
    open(path).close();
    const other = new DatabaseSync(path);
    other.exec('BEGIN IMMEDIATE');
    const s = open(path);
    const e = refusal(() => s.write((st) => st.sql('INSERT INTO notes (text) VALUES (?)').run('waits')));
    expect(e.message).toMatch(/it is busy: another assess process held it longer than the busy timeout$/);
    other.exec('ROLLBACK');
    s.write((st) => st.sql('INSERT INTO notes (text) VALUES (?)').run('now it goes'));
    other.close();
    s.close();
  });
});

describe.skipIf(unmountable() !== null)('a disk that cannot take it', () => {
  it('full: the write fails, nothing is reported done', () => {
    const fs = mountTmpfs('256k');
    try {
      const s = open(join(fs.dir, 'x.db'));
      fs.fill();
      const e = refusal(() =>
        s.write((st) => {
          for (let i = 0; i < 500; i++) st.sql('INSERT INTO notes (text) VALUES (?)').run('x'.repeat(1000));
        }),
      );
      expect(e.message).toMatch(/no space left on the device$/);
      s.close();
    } finally {
      fs.close();
    }
  });

  it('read-only: opening says so', () => {
    const fs = mountTmpfs('256k');
    try {
      fs.readOnly();
      const e = refusal(() => open(join(fs.dir, 'x.db')));
      expect(e.message).toMatch(/read-only file system/);
    } finally {
      fs.readOnly(false);
      fs.close();
    }
  });
});

it("Node's experimental-feature warning never reaches the user", () => {
  const code = "import { sqlite } from './src/store/sqlite.ts'; sqlite(); process.emitWarning('other warning');";
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8' });
  expect(r.status).toBe(0);
  expect(r.stderr).not.toMatch(/SQLite/);
  expect(r.stderr).toMatch(/other warning/); // other warnings still show
});
