import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, parseErrorBody } from '../../src/api/errors.js';
import { describeError, exitCodeFor } from '../../src/cli/exit-codes.js';
import { AuthError, CancelledError, NotFoundError, PartialFailureError, UsageError } from '../../src/errors.js';

const req = (operation = 'v3.invite') => ({ method: 'POST', url: 'http://x/v3/tests/1/invite', operation });

describe('error bodies in every documented shape', () => {
  it('{errors:[…]} (400 invite, links, settings, report)', () => {
    const e = new ApiError(400, parseErrorBody('{"errors":["email is required","name is required"]}'), req());
    expect(e.body.shape).toBe('errors');
    expect(e.messages).toEqual(['email is required', 'name is required']);
    expect(exitCodeFor(e)).toBe(1);
  });

  it('{errors:[…]} saying the API key is invalid (400 report) is an auth failure', () => {
    const e = new ApiError(400, parseErrorBody('{"errors":["Invalid API key"]}'), req('v3.getReport'));
    expect(exitCodeFor(e)).toBe(3);
  });

  it('{statusCode,message} (400 reattempt in progress)', () => {
    const e = new ApiError(
      400,
      parseErrorBody('{"statusCode":400,"message":"Reattempt is not allowed: in progress"}'),
      req('v3.reattempt'),
    );
    expect(e.body.shape).toBe('statusMessage');
    expect(e.messages).toEqual(['Reattempt is not allowed: in progress']);
    expect(exitCodeFor(e)).toBe(1);
  });

  it('{result:null,errors:[…]} (401 list attempts, bad date) is the service refusing, not auth', () => {
    const e = new ApiError(
      401,
      parseErrorBody('{"result":null,"errors":["Invalid StartDateTime"]}'),
      req('v3.listAttempts'),
    );
    expect(e.body.shape).toBe('resultErrors');
    expect(exitCodeFor(e)).toBe(1);
  });

  it('{result:null,errors:[…,id]} (401 process callbacks, unknown or foreign id) is an unknown id (exit 4)', () => {
    const e = new ApiError(
      401,
      parseErrorBody('{"result":null,"errors":["testinvitationIds does not belong to account or not found","94761"]}'),
      req('v3.processCallbacks'),
    );
    expect(e.messages).toEqual(['testinvitationIds does not belong to account or not found', '94761']);
    expect(exitCodeFor(e)).toBe(4);
    expect(describeError(e).hint).toMatch(/check the id/);
  });

  it('{statusCode:403,message} (403 list links of an unknown test) is an unknown id (exit 4)', () => {
    const e = new ApiError(
      403,
      parseErrorBody('{"statusCode":403,"message":"Test does not belong to this account"}'),
      req('v3.listLinks'),
    );
    expect(e.body.shape).toBe('statusMessage');
    expect(exitCodeFor(e)).toBe(4);
  });

  it("the vendor's two 401 forms: the gateway's refused key → 3, the service's unknown id → 4", () => {
    const gateway = new ApiError(
      401,
      parseErrorBody(
        '{"statusCode":401,"message":"Access denied due to invalid subscription key. Make sure to provide a valid ' +
          'key for an active subscription."}',
      ),
      req('v3.getReport'),
    );
    expect(exitCodeFor(gateway)).toBe(3);
    expect(describeError(gateway).hint).toMatch(/auth status/);
    expect(describeError(gateway).hint).not.toMatch(/\bid\b/);
    const unknown = new ApiError(
      401,
      parseErrorBody('{"errors":["Test invitation id 999999 does not belong to this account or was not found."]}'),
      req('v3.getReport'),
    );
    expect(exitCodeFor(unknown)).toBe(4);
    expect(describeError(unknown).hint).toMatch(/check the id/);
    const forbidden = new ApiError(
      403,
      parseErrorBody('{"statusCode":403,"message":"Your key lacks permission for this operation"}'),
      req('v3.getReport'),
    );
    expect(exitCodeFor(forbidden)).toBe(3);
  });

  it('v2 {statuscode,description}', () => {
    const e = new ApiError(
      400,
      parseErrorBody('{"statuscode":"400.1","description":"Invalid emailId"}'),
      req('v2.register'),
    );
    expect(e.body).toEqual({ shape: 'v2', statuscode: '400.1', description: 'Invalid emailId' });
  });

  it('a non-JSON body is kept as text', () => {
    const e = new ApiError(502, parseErrorBody('<html>Bad gateway</html>'), req());
    expect(e.body.shape).toBe('unknown');
    expect(exitCodeFor(e)).toBe(1);
  });

  it('404 → 4, 429 after retries → 6', () => {
    expect(exitCodeFor(new ApiError(404, parseErrorBody('{}'), req()))).toBe(4);
    expect(exitCodeFor(new ApiError(429, parseErrorBody('{}'), req(), 4))).toBe(6);
  });
});

describe('exit-code map', () => {
  it.each([
    [new UsageError('x'), 2],
    [new AuthError('x'), 3],
    [new NotFoundError('x'), 4],
    [new PartialFailureError('x', 1, 2), 5],
    [new NetworkError('x', req(), 'ECONNRESET'), 6],
    [new CancelledError(), 130],
    [new Error('boom'), 1],
  ])('%s → %i', (err, code) => {
    expect(exitCodeFor(err)).toBe(code);
  });

  it("an unreachable address names the variable of the request's API version, not the first whose URL matches", () => {
    const base = 'http://127.0.0.1:9';
    const hint = (operation: string, url: string, env: Record<string, string>) =>
      describeError(new NetworkError('x', { method: 'GET', url, operation }, 'ECONNREFUSED'), env).hint;
    const both = { ASSESS_BASE_URL: base, ASSESS_BASE_URL_V2: base };
    expect(hint('v3.getReport', `${base}/v3/reports/900101?reportType=1`, both)).toMatch(
      /^check ASSESS_BASE_URL \(the address it sets\)/,
    );
    expect(hint('v2.getReport', `${base}/v2/org/report/900101`, both)).toMatch(/^check ASSESS_BASE_URL_V2 \(/);
    // `assess api`: the version it was sent under (--v2 or not)
    expect(hint('v3.api', `${base}/v3/tests`, both)).toMatch(/^check ASSESS_BASE_URL \(/);
    expect(hint('v2.api', `${base}/v2/org/tests`, both)).toMatch(/^check ASSESS_BASE_URL_V2 \(/);
    // an operation without its version: the path tells
    expect(hint('other', `${base}/v3/tests?x=/v2/`, both)).toMatch(/^check ASSESS_BASE_URL \(/);
    expect(hint('other', `${base}/v2/org/tests`, both)).toMatch(/^check ASSESS_BASE_URL_V2 \(/);
    // a v2 request without ASSESS_BASE_URL_V2 went to ASSESS_BASE_URL's address
    expect(hint('v2.getReport', `${base}/v2/org/report/900101`, { ASSESS_BASE_URL: base })).toMatch(
      /^check ASSESS_BASE_URL \(/,
    );
    // a v3 request never names ASSESS_BASE_URL_V2; from the profile, the config
    expect(hint('v3.listTests', 'http://other.example/v3/tests', both)).toMatch(/assess config get base-url/);
    expect(hint('v3.listTests', `${base}/v3/tests`, { ASSESS_BASE_URL_V2: base })).toMatch(
      /assess config get base-url/,
    );
  });

  it("a 404 whose body is not the service's error hints at the base URL, not the id", () => {
    const at = (body: string, operation = 'v3.getReport', url = 'http://x/api/v3/reports/900101') =>
      describeError(new ApiError(404, parseErrorBody(body), { method: 'GET', url, operation }), {
        ASSESS_BASE_URL: 'http://x/api',
      }).hint;
    // the service's shapes (spec, "Errors"; v2's envelope): the id is what to check
    for (const body of [
      '{"errors":["Test invitation id 900101 was not found"]}',
      '{"statusCode":404,"message":"Resource not found"}',
      '{"result":null,"errors":["x"]}',
    ])
      expect(at(body)).toBe('check the id');
    expect(at('{"statuscode":"404.1","description":"not found"}', 'v2.getReport', 'http://x/api/v2/org/report/1')).toBe(
      'check the id',
    );
    // anything else came from something that is not the service
    expect(at('<!DOCTYPE html><title>404 Not Found</title>')).toBe(
      "an HTML page, not the service's error: the base URL may be wrong; check ASSESS_BASE_URL (the address it sets) " +
        '(if it is right, check the id)',
    );
    expect(at('{"message":"Not Found","documentation_url":"https://docs.example"}')).toMatch(
      /^JSON in another shape, not the service's error: the base URL may be wrong/,
    );
    expect(at('')).toMatch(/^an empty answer, not the service's error/);
    expect(at('Cannot GET /api/v3/reports/900101')).toMatch(/^plain text, not the service's error/);
    // set in the profile: the config key of the request's version
    expect(
      describeError(
        new ApiError(404, parseErrorBody('<html></html>'), {
          method: 'GET',
          url: 'http://y/v2/org/tests',
          operation: 'v2.listTests',
        }),
        {},
      ).hint,
    ).toMatch(/check the base URL \(assess config get base-url-v2\)/);
  });

  it('messages say what failed and what to do next', () => {
    const d = describeError(
      new ApiError(403, parseErrorBody('{"statusCode":403,"message":"not yours"}'), req('v3.listLinks')),
    );
    expect(d.message).toContain('HTTP 403');
    expect(d.message).toContain('not yours');
    expect(d.hint).toBeTruthy();
  });
});
