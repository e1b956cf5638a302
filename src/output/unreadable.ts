// A read whose answer the CLI could not understand at all is still shown (tolerant-reader
// policy, docs/assumptions.md): `--json`/`--ndjson` print the body exactly as received, the other
// formats fall back to key/value rows, and one warning line says what could not be read.
import type { UnreadableAnswerError } from '../api/read/read.js';
import type { Context } from '../context.js';
import { Printer, type Column } from './printer.js';
import { renderQueryResult } from './query.js';
import { escapeJson } from './escape.js';

export async function printUnreadable(ctx: Context, err: UnreadableAnswerError): Promise<void> {
  ctx.warn(`${err.message}; showing the answer as received (exit 0)`);
  const body = err.body;
  const { output } = ctx.globals;
  // exact when piped; on a terminal what JSON.stringify leaves raw (C1, bidi) is escaped
  const json = (text: string) => ctx.io.stdout.write(ctx.io.stdoutIsTTY ? escapeJson(text) : text);
  if (ctx.globals.query) {
    json(renderQueryResult(ctx.globals.query.run(body), output === 'ndjson'));
    return;
  }
  if (output === 'json' || output === 'ndjson') {
    json(`${JSON.stringify(body, null, output === 'json' ? 2 : undefined)}\n`);
    return;
  }
  // Field selection does not apply to an answer of unknown shape.
  const plainCtx: Context = { ...ctx, globals: { ...ctx.globals, fields: undefined } };
  const printer = new Printer(plainCtx);
  if (Array.isArray(body) && body.every((r) => r && typeof r === 'object' && !Array.isArray(r))) {
    const rows = body as Array<Record<string, unknown>>;
    const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    await printer.list(rows, { columns: keys.map((k): Column => ({ key: k, header: k })), fields: keys });
    return;
  }
  const obj =
    body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : { answer: body };
  // Values are looked up by their own key (a key with a dot in it is not a path here).
  await printer.object(obj, {
    fields: Object.keys(obj).map((k): Column => ({ key: k, header: k, value: (row) => row[k] })),
  });
}
