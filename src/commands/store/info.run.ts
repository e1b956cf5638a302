// `assess store info`: the store's file, its size, the parts and their schema versions, and how
// many rows each table holds (one object; --json for scripts).
import { statSync } from 'node:fs';
import type { Run } from '../../cli/command.js';
import { Printer } from '../../output/printer.js';
import type storeInfo from './info.js';
import { openExisting } from './shared/open.js';

export const run: Run<typeof storeInfo> = async (ctx, input) => {
  const store = await openExisting(ctx, input.store);
  const info = store.read((s) => {
    const parts = Object.fromEntries(
      s.db
        .prepare(
          'SELECT part, version FROM assess_schema WHERE EXISTS (SELECT 1 FROM sqlite_schema WHERE name = ' +
            "'assess_schema') ORDER BY part",
        )
        .all()
        .map((r) => [String(r.part), Number(r.version)]),
    );
    const names = s.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all();
    const tables = Object.fromEntries(
      names.map((t) => [
        String(t.name),
        Number(s.db.prepare(`SELECT count(*) AS n FROM "${String(t.name)}"`).get()!.n),
      ]),
    );
    return { parts, tables };
  });
  const size = (p: string) => {
    try {
      return statSync(p).size;
    } catch {
      return 0;
    }
  };
  const row = { path: store.path, bytes: size(store.path), walBytes: size(`${store.path}-wal`), ...info };
  await new Printer(ctx).object(row, {
    fields: [
      { key: 'path', header: 'Path' },
      { key: 'bytes', header: 'Bytes' },
      { key: 'walBytes', header: 'WAL bytes' },
      { key: 'parts', header: 'Parts', value: (r: typeof row) => JSON.stringify(r.parts) },
      { key: 'tables', header: 'Rows', value: (r: typeof row) => JSON.stringify(r.tables) },
    ],
  });
};
