// `assess api` against a server that echoes the key in an error body: stdout was scrubbed, but the
// error line on stderr (and --debug's ApiError) was built from the raw bytes and carried the key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startServer } from '../helpers/http-server.js';
import { runInProcess } from '../helpers/in-process.js';

const KEY = 'sk_live_EchoedBackByTheServer_4fQz';

let srv: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  srv = await startServer((req, res) => {
    const status = Number(/\/e(\d{3})/.exec(req.url)?.[1] ?? 200);
    json(res, status, { result: null, errors: [`bad ${String(req.headers['x-api-key'])}`] });
  });
});
afterAll(() => srv?.close());

describe('assess api: an error body echoing the key', () => {
  it.each(['400', '404', '500'])('HTTP %s: the error line is scrubbed too (also under --debug)', async (status) => {
    for (const debug of [[], ['--debug']]) {
      // runInProcess itself fails the test when ASSESS_API_KEY appears in stdout or stderr
      const r = await runInProcess([...debug, 'api', 'GET', `/v3/e${status}`], {
        env: { ASSESS_API_KEY: KEY, ASSESS_BASE_URL: srv.url },
      });
      expect(r.code).toBe(status === '404' ? 4 : 1);
      expect(r.stderr).toMatch(new RegExp(`GET /v3/e${status} .*HTTP ${status}: bad `));
      expect(r.stderr + r.stdout).not.toContain(KEY);
    }
  });
});
