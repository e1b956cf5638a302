// node:sqlite, loaded when a store is first opened (a command that keeps nothing never loads it).
// Node 22 announces it with "ExperimentalWarning: SQLite is an experimental feature" on load; that
// line is about Node, not about anything the user did, so it is kept off their terminal.
type Sqlite = typeof import('node:sqlite');

let loaded: Sqlite | undefined;

export function sqlite(): Sqlite {
  if (loaded) return loaded;
  const emit = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/SQLite is an experimental feature/.test(text)) return;
    return (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    loaded = process.getBuiltinModule('node:sqlite');
  } finally {
    process.emitWarning = emit;
  }
  return loaded;
}
