// A base URL whose path is wrong reaches a server that is not the service: its 404 (an HTML page,
// JSON of another shape) is hinted as a wrong base URL, not as an unknown id — also by `attempts
// wait`, which otherwise says the invitation was not found — and an HTML page is named by its
// title, not printed line by line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startServer } from '../helpers/http-server.js';
import { runInProcess } from '../helpers/in-process.js';

let srv: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  srv = await startServer((req, res) => {
    if (req.url.startsWith('/html/')) {
      res.writeHead(404, { 'content-type': 'text/html' });
      return void res.end(
        '<!DOCTYPE html>\n<html>\n<head><title>404 Not Found</title></head>\n<body>\n<h1>Not ' +
          'Found</h1>\n</body>\n</html>\n',
      );
    }
    if (req.url.startsWith('/other/'))
      return json(res, 404, { message: 'Not Found', documentation_url: 'https://docs.example/rest' });
    json(res, 404, { errors: [`Test id 999 was not found.`] });
  });
});
afterAll(() => srv?.close());

const run = (base: string, args: string[]) =>
  runInProcess(args, { env: { ASSESS_API_KEY: 'sk_test_base', ASSESS_BASE_URL: `${srv.url}${base}` } });

describe('a 404 from something that is not the service', () => {
  it.each([
    ['/html', 'an HTML page'],
    ['/other', 'JSON in another shape'],
  ])('base URL …%s: exit 4, hinted as a wrong base URL naming ASSESS_BASE_URL', async (base, got) => {
    const line = base === '/html' ? 'HTTP 404: an HTML page ("404 Not Found")\n' : 'HTTP 404: Not Found\n';
    for (const args of [
      ['tests', 'get', '999'],
      ['attempts', 'wait', '999', '--until', 'started'],
    ]) {
      const r = await run(base, args);
      expect(r.code, r.stderr).toBe(4);
      expect(r.stderr).toContain(
        `${got}, not the service's error: the base URL may be wrong; check ASSESS_BASE_URL (the address it sets)`,
      );
      expect(r.stderr).not.toMatch(/invitation 999 not found/);
      // the page is named, not dumped: two lines, the error and the hint
      expect(r.stderr).toContain(line);
      expect(r.stderr.trim().split('\n')).toHaveLength(2);
    }
  });

  it("the service's own 404 still says to check the id", async () => {
    const r = await run('', ['tests', 'get', '999']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/HTTP 404: Test id 999 was not found\.\n {2}check the id\n?$/);
  });
});
