// `callbacks listen` pure parts and its receiver (in process): body validation (v3 and v2), the
// --exec environment (made safe: no NUL, no value too long), an --exec that cannot start (warned,
// counted), the printed row, the callback URL, and the HTTP answers (404, 405, 401, 413, 400,
// 200) with the raw body handed on.
import { Chalk } from 'chalk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  csvHeader,
  csvRow,
  eventEnv,
  tableHeader,
  tableRow,
} from '../../src/commands/callbacks/shared/notification.js';
import { forwardedByValue, forwardsToItself, reachesItself } from '../../src/commands/callbacks/shared/self-forward.js';
import { MAX_ENV_VALUE_BYTES, runExec, safeEventEnv } from '../../src/commands/callbacks/shared/exec.js';
import { WorkQueue } from '../../src/commands/callbacks/shared/queue.js';
import type { Context } from '../../src/context.js';
import { waitFor } from '../helpers/wait.js';
import {
  callbackUrlFor,
  MAX_BODY_BYTES,
  startReceiver,
  type Received,
  type Rejected,
  type RunningReceiver,
} from '../../src/commands/callbacks/shared/receiver.js';

const V3 = {
  CandidateEmailId: 'ann@example.com',
  AttemptedOn: '2025-03-01T10:00:00Z',
  AttemptedOnUtc: '2025-03-01T10:00:00Z',
  TotalScore: 130,
  CandidateScore: 104,
  ReportPDFUrl: 'https://x.test/v3/reports/900100/pdf',
  TestInvitationId: 900100,
  Status: 'Complete',
  PerformanceCategory: 'Good',
};
const V2 = {
  CandidateEmailId: 'bo@example.com',
  AttemptedOn: '2025-03-01T10:00:00',
  TotalScore: 10,
  CandidateScore: 7,
  ReportPDFUrl: 'https://x.test/r.pdf',
  TestInvitationId: 12,
};

describe('printing and --exec environment', () => {
  it('eventEnv maps every field to ASSESS_EVENT_*; null and missing become empty', () => {
    expect(eventEnv(V3, 'v3')).toEqual({
      ASSESS_EVENT_VERSION: 'v3',
      ASSESS_EVENT_EMAIL: 'ann@example.com',
      ASSESS_EVENT_ATTEMPTED_ON: '2025-03-01T10:00:00Z',
      ASSESS_EVENT_ATTEMPTED_ON_UTC: '2025-03-01T10:00:00Z',
      ASSESS_EVENT_TOTAL_SCORE: '130',
      ASSESS_EVENT_CANDIDATE_SCORE: '104',
      ASSESS_EVENT_REPORT_URL: 'https://x.test/v3/reports/900100/pdf',
      ASSESS_EVENT_INVITATION_ID: '900100',
      ASSESS_EVENT_STATUS: 'Complete',
      ASSESS_EVENT_PERFORMANCE_CATEGORY: 'Good',
    });
    const v2 = eventEnv(V2, 'v2');
    expect([v2.ASSESS_EVENT_STATUS, v2.ASSESS_EVENT_ATTEMPTED_ON_UTC, v2.ASSESS_EVENT_VERSION]).toEqual(['', '', 'v2']);
  });
  it('a TTY row shows status, invitation, candidate, score and report; CSV has the v3 fields in order', () => {
    const c = new Chalk({ level: 0 });
    const row = tableRow(V3, new Date('2025-03-01T09:05:07Z'), c, 'Europe/Paris');
    expect(row).toMatch(
      /^10:05:07 CET\s+Complete\s+900100\s+ann@example\.com\s+104\/130\s+Good\s+https:\/\/x\.test\/v3\/reports\/900100\/pdf$/,
    );
    expect(tableHeader(c)).toMatch(/^Received\s+Status\s+Invitation\s+Candidate\s+Score\s+Category\s+Report$/);
    expect(csvHeader()).toBe(
      'CandidateEmailId,AttemptedOn,AttemptedOnUtc,TotalScore,CandidateScore,ReportPDFUrl,TestInvitationId,Status,PerformanceCategory\r\n',
    );
    expect(csvRow({ ...V3, PerformanceCategory: null })).toBe(
      'ann@example.com,2025-03-01T10:00:00Z,2025-03-01T10:00:00Z,130,104,https://x.test/v3/reports/900100/pdf,900100,Complete,\r\n',
    );
    // on a terminal (escape): control and bidi characters as escapes; piped: exact
    const evil = { ...V3, CandidateEmailId: 'a\u001b]0;x\u0007\u202e@e.example' };
    expect(csvRow(evil, false, true)).toMatch(/^a\\x1b\]0;x\\x07\\u202e@e\.example,/);
    expect(csvRow(evil)).toMatch(/^a\u001b\]0;x\u0007\u202e@e\.example,/);
  });
  it('callbackUrlFor: loopback for a wildcard bind, brackets for IPv6, the token in the query', () => {
    expect(callbackUrlFor('127.0.0.1', 8787, '/hook')).toBe('http://127.0.0.1:8787/hook');
    expect(callbackUrlFor('0.0.0.0', 1, '/h', 'tok-1')).toBe('http://127.0.0.1:1/h?token=tok-1');
    expect(callbackUrlFor('::1', 2, '/h')).toBe('http://[::1]:2/h');
  });
});

describe('--exec: what no environment can hold, and a command that cannot start', () => {
  it('safeEventEnv removes NULs and leaves out a value over the limit, naming it in ASSESS_EVENT_OMITTED', () => {
    const long = 'x'.repeat(MAX_ENV_VALUE_BYTES + 1);
    const r = safeEventEnv({
      ASSESS_EVENT_STATUS: 'Complete',
      ASSESS_EVENT_EMAIL: 'a\0b\0',
      ASSESS_EVENT_PERFORMANCE_CATEGORY: long,
      ASSESS_EVENT_JSON: long,
    });
    expect(r.env).toEqual({
      ASSESS_EVENT_STATUS: 'Complete',
      ASSESS_EVENT_EMAIL: 'ab',
      ASSESS_EVENT_OMITTED: 'ASSESS_EVENT_PERFORMANCE_CATEGORY,ASSESS_EVENT_JSON',
    });
    expect(r.notes.join('\n')).toMatch(
      /NUL characters removed from ASSESS_EVENT_EMAIL[\s\S]*ASSESS_EVENT_PERFORMANCE_CATEGORY, ASSESS_EVENT_JSON left out/,
    );
    expect(safeEventEnv({ ASSESS_EVENT_JSON: 'é'.repeat(MAX_ENV_VALUE_BYTES / 2) }).env.ASSESS_EVENT_JSON).toHaveLength(
      MAX_ENV_VALUE_BYTES / 2,
    ); // bytes, not characters
    expect(safeEventEnv({ ASSESS_EVENT_STATUS: 'Complete' })).toEqual({
      env: { ASSESS_EVENT_STATUS: 'Complete' },
      notes: [],
    });
  });

  it('runExec rejects when the command cannot start (spawn throws); the queue warns and reports it', async () => {
    const warned: string[] = [];
    // an environment the system refuses: a NUL (ERR_INVALID_ARG_VALUE), a variable over 128 KiB (E2BIG on Linux)
    const ctxWith = (env: Record<string, string>) =>
      ({ env, io: { stderr: { write: () => true } }, warn: (m: string) => warned.push(m) }) as unknown as Context;
    const n = { body: V3, version: 'v3', raw: Buffer.from(JSON.stringify(V3)) } as unknown as Received;
    const never = new AbortController().signal;
    await expect(
      runExec(ctxWith({ PATH: process.env.PATH ?? '', X: 'a\0b' }), 'true', n, never, 'invitation 900100'),
    ).rejects.toThrow(/^could not start: /);

    const ran: string[] = [];
    const q = new WorkQueue<string>(
      '--exec',
      { maxItems: 10, maxBytes: 1 << 20 },
      async (item) => {
        ran.push(item);
        if (item === 'bad') throw new Error('could not start: spawn E2BIG');
      },
      (m) => warned.push(m),
    );
    q.push('bad', 1, 'invitation 1 (Complete)');
    q.push('good', 1, 'invitation 2 (Complete)');
    await waitFor(() => ran.length === 2, { what: 'both items to run' });
    const report = await q.stop(5_000);
    expect(report).toEqual({ notDone: [], dropped: 0, failed: ['invitation 1 (Complete)'] });
    expect(warned).toContain('--exec for invitation 1 (Complete): could not start: spawn E2BIG');
  });
});

describe('--forward-to pointing at the listener itself', () => {
  it('is the same local host (any loopback spelling), port and path; anything else is not', () => {
    for (const url of [
      'http://localhost:8787/hook',
      'http://127.0.0.1:8787/hook?x=1',
      'http://[::1]:8787/hook',
      'http://LOCALHOST:8787/hook',
    ])
      expect(forwardsToItself(url, '127.0.0.1', 8787, '/hook'), url).toBe(true);
    expect(forwardsToItself('http://10.0.0.5:8787/hook', '10.0.0.5', 8787, '/hook')).toBe(true);
    for (const url of [
      'http://localhost:8788/hook',
      'http://localhost:8787/other',
      'https://localhost:8787/hook',
      'http://example.com:8787/hook',
      'http://localhost/hook',
    ])
      expect(forwardsToItself(url, '127.0.0.1', 8787, '/hook'), url).toBe(false);
    expect(forwardsToItself('http://localhost/hook', '127.0.0.1', 80, '/hook')).toBe(true);
  });
});

describe('--forward-to reaching the listener through a name or another local address', () => {
  const bound = (address: string) => ({ address, port: 8787, path: '/hook' });
  const resolvesTo =
    (...addresses: string[]) =>
    async () =>
      addresses;
  const interfaces = () => ['127.0.0.1', '::1', '10.1.2.3', 'fe80::1%eth0'];

  it('a host name resolving to the bound address, or to any local address of a 0.0.0.0 or :: bind, is this listener', async () => {
    const cases: Array<[string, string, string[], boolean]> = [
      ['http://my-box:8787/hook', '127.0.0.1', ['127.0.0.1'], true],
      ['http://my-box:8787/hook', '127.0.0.1', ['127.0.1.1'], false], // another loopback address: nothing listens there
      ['http://my-box:8787/hook', '0.0.0.0', ['127.0.1.1'], true],
      ['http://my-box:8787/hook', '0.0.0.0', ['10.1.2.3'], true],
      ['http://my-box:8787/hook', '0.0.0.0', ['10.9.9.9'], false],
      ['http://my-box:8787/hook', '0.0.0.0', ['::1'], false], // an IPv4 bind does not answer on IPv6
      ['http://my-box:8787/hook', '::', ['10.1.2.3'], true], // dual stack
      ['http://my-box:8787/hook', '::', ['FE80::1'], true],
      ['http://my-box:8787/hook', '10.1.2.3', ['::ffff:10.1.2.3'], true],
      ['http://my-box:8787/hook', '10.1.2.3', ['0.0.0.0'], false],
      ['http://127.0.0.2:8787/hook', '0.0.0.0', ['127.0.0.2'], true],
      ['http://my-box:8788/hook', '0.0.0.0', ['127.0.0.1'], false], // another port
      ['http://my-box:8787/other', '0.0.0.0', ['127.0.0.1'], false], // another path: 404, no loop
      ['https://my-box:8787/hook', '0.0.0.0', ['127.0.0.1'], false],
      ['http://my-box:8787/hook', '0.0.0.0', [], false], // does not resolve
    ];
    for (const [url, address, resolved, self] of cases)
      expect(
        await reachesItself(url, bound(address), { lookup: resolvesTo(...resolved), interfaces }),
        `${url} → ${resolved.join()} bound ${address}`,
      ).toBe(self);
    // a lookup that fails is not this listener (the run-time guard remains)
    const failing = async () => Promise.reject(new Error('ENOTFOUND'));
    expect(
      await reachesItself('http://nowhere.invalid:8787/hook', bound('0.0.0.0'), { lookup: failing, interfaces }),
    ).toBe(false);
    // what is written as loopback needs no lookup
    expect(await reachesItself('http://localhost:8787/hook', bound('127.0.0.1'), { lookup: failing, interfaces })).toBe(
      true,
    );
  });

  it('assess-forwarded-by carries the listeners a forward went through, this one last, at most 16', () => {
    expect(forwardedByValue(undefined, 'me')).toBe('me');
    expect(forwardedByValue('a, b', 'me')).toBe('a, b, me');
    expect(forwardedByValue(['a', 'me, b'], 'me')).toBe('a, b, me');
    const many = Array.from({ length: 30 }, (_, i) => `l${i}`).join(',');
    expect(forwardedByValue(many, 'me').split(', ')).toEqual([
      ...Array.from({ length: 15 }, (_, i) => `l${i + 15}`),
      'me',
    ]);
  });
});

describe('the receiver', () => {
  let rx: RunningReceiver;
  const got: Received[] = [];
  const refused: Rejected[] = [];
  beforeAll(async () => {
    rx = await startReceiver({
      host: '127.0.0.1',
      port: 0,
      path: '/hook',
      token: 'T0k',
      listenerId: 'L1',
      onNotification: (n) => got.push(n),
      onRejected: (r) => refused.push(r),
    });
  });
  afterAll(() => rx.close());
  const post = (url: string, body: string | Buffer, method = 'POST') =>
    fetch(url, { method, body: method === 'GET' ? undefined : body, headers: { 'content-type': 'application/json' } });

  it('answers 200 to a valid notification and hands on the raw body', async () => {
    const raw = JSON.stringify(V3, null, 1); // not re-serialised: forwarded byte for byte
    const r = await post(rx.callbackUrl, raw);
    expect(r.status).toBe(200);
    expect(got.at(-1)).toMatchObject({ version: 'v3', contentType: 'application/json', body: V3 });
    expect(got.at(-1)!.raw.toString('utf8')).toBe(raw);
  });

  it('refuses with a reason: wrong path 404, GET 405, token missing/wrong 401, not JSON without an inbox 400, too large 413', async () => {
    const base = rx.callbackUrl.split('?')[0]!;
    const cases: Array<[string, string | Buffer, string, number, RegExp]> = [
      [base.replace('/hook', '/nope') + '?token=T0k', '{}', 'POST', 404, /no receiver at \/nope/],
      [rx.callbackUrl, '', 'GET', 405, /GET is not accepted/],
      [base, JSON.stringify(V3), 'POST', 401, /missing \?token=/],
      [`${base}?token=T0K`, JSON.stringify(V3), 'POST', 401, /wrong token/],
      [rx.callbackUrl, '{oops', 'POST', 400, /not JSON/],
      [rx.callbackUrl, Buffer.alloc(MAX_BODY_BYTES + 10, 0x20), 'POST', 413, /larger than/],
    ];
    const before = got.length;
    for (const [url, body, method, status, reason] of cases) {
      const r = await post(url, body, method);
      expect(r.status, `${method} ${url}`).toBe(status);
      expect(((await r.json()) as { error: string }).error).toMatch(reason);
      expect(refused.at(-1)).toMatchObject({ status, reason: expect.stringMatching(reason) });
    }
    expect(got.length).toBe(before);
  });

  it('refuses with 508 what carries its own id in assess-forwarded-by (a loop); other ids are fine', async () => {
    const before = got.length;
    const send = (via: string) =>
      fetch(rx.callbackUrl, { method: 'POST', body: JSON.stringify(V3), headers: { 'assess-forwarded-by': via } });
    const loop = await send('X9, L1');
    expect(loop.status).toBe(508);
    expect(refused.at(-1)).toMatchObject({ status: 508, reason: expect.stringMatching(/^loop detected/) });
    expect(got.length).toBe(before);
    expect((await send('X9, L12')).status).toBe(200);
    expect(got.length).toBe(before + 1);
  });
});
