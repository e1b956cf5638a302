// `assess sandbox openapi` (built binary) prints the OpenAPI document of a running sandbox, and
// of the embedded one with --sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

describe('assess sandbox openapi', () => {
  let t: TestSandbox;
  beforeAll(async () => {
    t = await startTestSandbox();
  });
  afterAll(() => t.close());

  it('prints the document of the sandbox at --url', async () => {
    const r = await runAssess(['sandbox', 'openapi', '--url', t.sb.baseUrl], { env: t.env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0].url).toBe(t.sb.baseUrl);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v3/tests',
        '/v3/tests/{testId}/invite',
        '/v3/reports/{testInvitationId}',
        '/v3/callbacks/process',
        '/v2/org/tests',
        '/v2/org/report/{testInvitationId}/pdf',
      ]),
    );
    expect(doc.paths['/v2/org/tests'].get.deprecated).toBe(true);
    expect(doc.paths['/v3/tests'].get.deprecated).toBeUndefined();
  });

  it('prints the document of the embedded sandbox with --sandbox', async () => {
    const r = await runAssess(['--sandbox', 'sandbox', 'openapi']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.paths['/v3/tests/{testId}/settings']).toEqual(
      expect.objectContaining({ get: expect.any(Object), post: expect.any(Object) }),
    );
    // the embedded sandbox stops with the command: the document names one the user can start, not its dead port
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'http://127.0.0.1:4010' })]);
    expect(r.stderr).toMatch(/assess sandbox serve --port 4010/);
    expect(doc.webhooks.completionNotification.post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CompletionNotification',
    });
  });

  it('refuses a bad --url before contacting anything (exit 2)', async () => {
    const r = await runAssess(['sandbox', 'openapi', '--url', 'not a url']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--url');
  });
});
