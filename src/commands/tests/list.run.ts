// tests list: one page, or with --all every page from --page on, streamed row by row so --ndjson
// and TSV start printing before the last page arrives.
import type { Run } from '../../cli/command.js';
import { Printer } from '../../output/printer.js';
import type list from './list.js';
import { TEST_COLUMNS } from './list.js';
import { pagesOf, type V3ClientLike } from './shared/pages.js';
import { listTestsV2 } from './shared/v2.js';

export const run: Run<typeof list> = async (ctx, { page, pageSize, all }) => {
  const api: V3ClientLike = await ctx.api();
  const printer = new Printer(ctx);
  if (!all) {
    const { tests } = await api.listTests({ pageNo: page, pageSize });
    const n = await printer.list(tests, { columns: TEST_COLUMNS });
    if (n === pageSize && ctx.io.stderrIsTTY) ctx.info(`Page ${page}; more with --page ${page + 1}, or --all.`);
    return;
  }
  const rows = await pagesOf(api, page, pageSize, (m) => ctx.warn(m));
  await printer.list(rows, { columns: TEST_COLUMNS });
};

export const runV2: Run<typeof list> = listTestsV2;
