// `assess api` sends the path's query string as typed: a repeated parameter (`?a=1&a=2`) keeps
// every value in order (it was folded into an object, keeping only the last), and nothing is
// re-encoded, added (`flag` → `flag=`) or cut (a second `?`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startServer } from '../helpers/http-server.js';
import { runInProcess } from '../helpers/in-process.js';

let srv: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  srv = await startServer((req, res) => json(res, 200, { url: req.url }));
});
afterAll(() => srv?.close());

const env = () => ({ ASSESS_API_KEY: 'sk_test_query', ASSESS_BASE_URL: srv.url });

describe('assess api: the query string', () => {
  it.each([
    ['/v3/tests?a=1&a=2', '/v3/tests?a=1&a=2'],
    ['/v3/tests?a=2&b=x&a=1&a=3', '/v3/tests?a=2&b=x&a=1&a=3'],
    ['/v3/tests?name=a%20b&flag&q=a?b', '/v3/tests?name=a%20b&flag&q=a?b'],
  ])('%s is sent as %s', async (path, sent) => {
    const before = srv.requests.length;
    const r = await runInProcess(['api', 'GET', path], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(srv.requests.slice(before).map((q) => q.url)).toEqual([sent]);
  });

  it('with --v2 too', async () => {
    const before = srv.requests.length;
    const r = await runInProcess(['api', 'GET', '/v2/org/tests?page_no=1&page_no=2', '--v2'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(srv.requests.slice(before).map((q) => q.url)).toEqual(['/v2/org/tests?page_no=1&page_no=2']);
  });
});
