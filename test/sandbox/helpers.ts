// Test helpers: a sandbox on 127.0.0.1:0 and plain-fetch clients for the API and control API.
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';

export interface Res<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface Harness {
  sb: RunningSandbox;
  keyA: string;
  keyB: string;
  /** v3 call with account A's key unless `key` is given (null = no key). */
  api<T = any>(method: string, path: string, body?: unknown, key?: string | null): Promise<Res<T>>;
  control<T = any>(method: string, path: string, body?: unknown): Promise<Res<T>>;
  /** Invite on the default link and return the invitation id. */
  inviteA(testId: number, email: string, extra?: Record<string, unknown>): Promise<number>;
  /** Move an invitation with the control API; throws unless 200. */
  move(id: number, to: string, extra?: Record<string, unknown>): Promise<any>;
  /** Whole state without the request log (which every call changes). */
  stateWithoutLog(): Promise<unknown>;
  close(): Promise<void>;
}

async function call(
  base: string,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<Res> {
  const res = await fetch(base + path, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json')) parsed = text ? JSON.parse(text) : undefined;
  return { status: res.status, body: parsed, headers: res.headers };
}

export async function harness(opts: { stateFile?: string } = {}): Promise<Harness> {
  const sb = await startSandbox({ port: 0, stateFile: opts.stateFile });
  const [keyA, keyB] = sb.keys;
  const h: Harness = {
    sb,
    keyA,
    keyB,
    api: (method, path, body, key = keyA) =>
      call(sb.baseUrl, method, path, body, key === null ? {} : { 'X-API-KEY': key }),
    control: (method, path, body) => call(sb.baseUrl, method, `/_sandbox${path}`, body, {}),
    async inviteA(testId, email, extra = {}) {
      const r = await h.api('POST', `/v3/tests/${testId}/invite`, { email, name: 'Test Candidate', ...extra });
      if (r.status !== 200) throw new Error(`invite failed: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.testInvitationId;
    },
    async move(id, to, extra = {}) {
      const r = await h.control('POST', `/invitations/${id}/simulate`, { to, ...extra });
      if (r.status !== 200) throw new Error(`simulate ${to} failed: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    },
    async stateWithoutLog() {
      const { requests: _r, ...rest } = (await h.control('GET', '/state')).body;
      return rest;
    },
    close: () => sb.close(),
  };
  return h;
}

const utc = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
/** A reattempt window open now (from an hour ago, for ten days), time zone 7. */
export const REATTEMPT_BODY = {
  StartDateTime: utc(Date.now() - 3_600_000),
  EndDateTime: utc(Date.now() + 10 * 86_400_000),
  TimeZoneId: 7,
};

/** A complete, valid settings object (full replace). */
export const FULL_SETTINGS = {
  testSettings: { testName: 'T', testAliasName: 't', typeOfTest: 1, practiceTest: 0 },
  questionSettings: { randomQuestions: 0, randomAnswers: 0, showQuestionScore: 1 },
  displayMessageSettings: { sectionEndPopup: 0, sectionTimeLeftAlert: 0, candidateFeedback: 0 },
  emailSettings: { sendTestReportEmailToCandidate: 0 },
  imageProctoringSettings: { terminateTestOnImageViolation: 0, terminateTestAfterViolationCount: 0 },
  windowViolationSettings: {
    copyPaste: 0,
    displayViolationSettings: {
      displayViolationPopUp: 1,
      terminateTestOnWindowViolation: 0,
      terminateTestAfterViolationCount: 2,
    },
  },
};
