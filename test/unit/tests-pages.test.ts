import { describe, expect, it } from 'vitest';
import { pagesOf } from '../../src/commands/tests/shared/pages.js';

function fakeApi(total: number, opts: { ignorePageNo?: boolean; totalCount?: boolean } = {}) {
  const calls: Array<{ pageNo?: number; pageSize?: number }> = [];
  const all = Array.from({ length: total }, (_, i) => ({ testId: 1000 + i, testName: `T${i}` }));
  return {
    calls,
    listTests: async (q: { pageNo?: number; pageSize?: number } = {}) => {
      calls.push(q);
      const page = opts.ignorePageNo ? 1 : q.pageNo!;
      const tests = all.slice((page - 1) * q.pageSize!, page * q.pageSize!);
      return { tests, ...(opts.totalCount ? { totalCount: total } : {}) };
    },
  };
}

async function collect(it: AsyncIterable<{ testId: number | string }>) {
  const ids: Array<number | string> = [];
  for await (const t of it) ids.push(t.testId);
  return ids;
}

describe('tests list --all paging', () => {
  it('follows pages until a short page', async () => {
    const api = fakeApi(5);
    expect(await collect(await pagesOf(api, 1, 2, () => undefined))).toEqual([1000, 1001, 1002, 1003, 1004]);
    expect(api.calls.map((c) => c.pageNo)).toEqual([1, 2, 3]);
  });

  it('stops on an empty page when the count divides evenly, and at totalCount without asking again', async () => {
    const a = fakeApi(4);
    expect(await collect(await pagesOf(a, 1, 2, () => undefined))).toHaveLength(4);
    expect(a.calls).toHaveLength(3);
    const b = fakeApi(4, { totalCount: true });
    expect(await collect(await pagesOf(b, 1, 2, () => undefined))).toHaveLength(4);
    expect(b.calls).toHaveLength(2);
  });

  it('starts at --page', async () => {
    expect(await collect(await pagesOf(fakeApi(5), 2, 2, () => undefined))).toEqual([1002, 1003, 1004]);
  });

  it('fetches the first page before returning, so errors come before any output', async () => {
    const api = fakeApi(3);
    await pagesOf(api, 1, 2, () => undefined);
    expect(api.calls).toHaveLength(1);
  });

  it('stops with a warning when the service ignores pageNo', async () => {
    const warnings: string[] = [];
    const ids = await collect(await pagesOf(fakeApi(10, { ignorePageNo: true }), 1, 2, (m) => warnings.push(m)));
    expect(ids).toEqual([1000, 1001]);
    expect(warnings[0]).toMatch(/ignore pageNo/);
  });
});
