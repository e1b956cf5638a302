// Schedule, settings and request validation of the shared wire schemas, and lenient reading.
import { describe, expect, it } from 'vitest';
import {
  applySettingsConstraints,
  InviteRequest,
  parseAttemptDateTime,
  parseWith,
  ProcessCallbacksRequest,
  ReattemptRequest,
  Report,
  TestLinkInput,
  TestSettings,
  TestsListResponse,
} from '../../src/api/schemas/index.js';
import { FULL_SETTINGS } from './helpers.js';

const link = (schedule: unknown, extra: Record<string, unknown> = {}) => ({
  testLinkName: 'L',
  invitationType: 'email',
  invitationSchedule: schedule,
  ...extra,
});
const errorsOf = (r: { ok: boolean; errors?: string[] }) => (r.ok ? [] : r.errors!).join(' | ');

describe('test link schedule rules', () => {
  it('validityindays needs invitationValidityInDays and timeZoneId', () => {
    const ok = parseWith(
      TestLinkInput,
      link({ scheduleType: 'validityindays', scheduleDetails: { invitationValidityInDays: 3, timeZoneId: 1 } }),
    );
    expect(ok.ok).toBe(true);
    const bad = parseWith(TestLinkInput, link({ scheduleType: 'validityindays', scheduleDetails: { timeZoneId: 1 } }));
    expect(errorsOf(bad)).toContain('invitationValidityInDays is required');
    const noTz = parseWith(
      TestLinkInput,
      link({ scheduleType: 'validityindays', scheduleDetails: { invitationValidityInDays: 3 } }),
    );
    expect(errorsOf(noTz)).toContain('timeZoneId is required');
  });
  it.each(['timebound', 'slotwise'])(
    '%s needs start, end (after start), time zone, in YYYY-MM-ddTHH:mm:ssZ',
    (scheduleType) => {
      const details = { startDateTime: '2030-01-01T09:00:00Z', endDateTime: '2030-01-05T17:00:00Z', timeZoneId: 3 };
      expect(parseWith(TestLinkInput, link({ scheduleType, scheduleDetails: details })).ok).toBe(true);
      expect(
        errorsOf(
          parseWith(TestLinkInput, link({ scheduleType, scheduleDetails: { ...details, endDateTime: undefined } })),
        ),
      ).toContain('endDateTime is required');
      expect(
        errorsOf(
          parseWith(TestLinkInput, link({ scheduleType, scheduleDetails: { ...details, timeZoneId: undefined } })),
        ),
      ).toContain('timeZoneId is required');
      expect(
        errorsOf(
          parseWith(
            TestLinkInput,
            link({ scheduleType, scheduleDetails: { ...details, endDateTime: '2029-12-31T00:00:00Z' } }),
          ),
        ),
      ).toContain('endDateTime must be after startDateTime');
      for (const bad of [
        '2030-01-01 09:00:00',
        '2030-01-01T09:00:00',
        '2030-01-01T09:00:00.000Z',
        '2030-02-30T00:00:00Z',
        '2030-01-01T09:00:00+01:00',
      ])
        expect(
          errorsOf(
            parseWith(TestLinkInput, link({ scheduleType, scheduleDetails: { ...details, startDateTime: bad } })),
          ),
        ).toContain('YYYY-MM-ddTHH:mm:ssZ');
    },
  );
  it('unknown scheduleType, invitationType, status and proctoring mode are refused', () => {
    const v = { scheduleType: 'validityindays', scheduleDetails: { invitationValidityInDays: 3, timeZoneId: 1 } };
    expect(errorsOf(parseWith(TestLinkInput, link({ scheduleType: 'weekly', scheduleDetails: {} })))).toContain(
      'scheduleType',
    );
    expect(errorsOf(parseWith(TestLinkInput, link(v, { invitationType: 'public' })))).toContain(
      "invitationType: must be 'email' or 'open'",
    );
    expect(errorsOf(parseWith(TestLinkInput, link(v, { testLinkStatus: 'paused' })))).toContain('testLinkStatus');
    expect(errorsOf(parseWith(TestLinkInput, link(v, { proctoringSettings: { proctoringMode: 'audio' } })))).toContain(
      'proctoringMode',
    );
  });
  it('stakeholderEmails must be comma-separated e-mails', () => {
    const v = { scheduleType: 'validityindays', scheduleDetails: { invitationValidityInDays: 3, timeZoneId: 1 } };
    expect(parseWith(TestLinkInput, link(v, { stakeholderEmails: 'a@x.com, b@y.org' })).ok).toBe(true);
    expect(errorsOf(parseWith(TestLinkInput, link(v, { stakeholderEmails: 'a@x.com,nope' })))).toContain("'nope'");
  });
});

describe('settings (full object)', () => {
  it('accepts the full object; omitted fields with a default take 0', () => {
    const { displayMessageSettings: _d, emailSettings: _e, imageProctoringSettings: _i, ...minimal } = FULL_SETTINGS;
    const r = parseWith(TestSettings, minimal);
    expect(r.ok && r.value.emailSettings.sendTestReportEmailToCandidate).toBe(0);
    expect(r.ok && r.value.displayMessageSettings).toEqual({
      sectionEndPopup: 0,
      sectionTimeLeftAlert: 0,
      candidateFeedback: 0,
    });
  });
  it('a missing required field is listed by name', () => {
    const body = structuredClone(FULL_SETTINGS) as any;
    delete body.testSettings.testAliasName;
    delete body.windowViolationSettings.copyPaste;
    const e = errorsOf(parseWith(TestSettings, body));
    expect(e).toContain('testSettings.testAliasName is required');
    expect(e).toContain('windowViolationSettings.copyPaste is required');
  });
  it('flags are 0 or 1; typeOfTest is 1 or 2', () => {
    const body = structuredClone(FULL_SETTINGS) as any;
    body.questionSettings.randomQuestions = 2;
    body.testSettings.typeOfTest = 3;
    const e = errorsOf(parseWith(TestSettings, body));
    expect(e).toContain('questionSettings.randomQuestions: must be 0 or 1');
    expect(e).toContain('typeOfTest');
  });
  it('allowing copy-paste disables the window violation popup', () => {
    const r = parseWith(TestSettings, {
      ...FULL_SETTINGS,
      windowViolationSettings: { ...FULL_SETTINGS.windowViolationSettings, copyPaste: 1 },
    });
    expect(r.ok).toBe(true);
    const stored = applySettingsConstraints(r.ok ? r.value : (null as never));
    expect(stored.windowViolationSettings.displayViolationSettings.displayViolationPopUp).toBe(0);
    const noCopy = parseWith(TestSettings, FULL_SETTINGS);
    expect(
      applySettingsConstraints(noCopy.ok ? noCopy.value : (null as never)).windowViolationSettings
        .displayViolationSettings.displayViolationPopUp,
    ).toBe(1);
  });
});

describe('requests', () => {
  it('invite: email and name required, e-mail format, sendEmail default no', () => {
    expect(errorsOf(parseWith(InviteRequest, {}))).toBe('email is required | name is required');
    expect(errorsOf(parseWith(InviteRequest, { email: 'not-an-email', name: 'N' }))).toContain('email');
    const ok = parseWith(InviteRequest, { email: 'a@b.co', name: 'N', callbackURL: 'https://x.test/cb' });
    expect(ok.ok && ok.value.sendEmail).toBe('no');
    expect(ok.ok && ok.value.callbackURL).toBe('https://x.test/cb');
  });
  it('invite: disableMandatoryFields lifts the requirement; stakeholderEmails accepts disable', () => {
    expect(parseWith(InviteRequest, { disableMandatoryFields: 1 }).ok).toBe(true);
    expect(parseWith(InviteRequest, { email: 'a@b.co', name: 'N', stakeholderEmails: 'disable' }).ok).toBe(true);
    expect(parseWith(InviteRequest, { email: 'a@b.co', name: 'N', ProctoringMode: 'audio' }).ok).toBe(false);
  });
  it('reattempt: PascalCase start, end, time zone required', () => {
    expect(errorsOf(parseWith(ReattemptRequest, {}))).toBe(
      'StartDateTime is required | EndDateTime is required | TimeZoneId is required',
    );
  });
  it('callbacks: 1 to 100 ids', () => {
    expect(
      parseWith(ProcessCallbacksRequest, { testinvitationIds: Array.from({ length: 100 }, (_, i) => i + 1) }).ok,
    ).toBe(true);
    expect(
      errorsOf(parseWith(ProcessCallbacksRequest, { testinvitationIds: Array.from({ length: 101 }, (_, i) => i + 1) })),
    ).toContain('at most 100');
  });
  it('attempt date-times: with and without Z; a date alone is 00:00:00', () => {
    expect(parseAttemptDateTime('2030-01-02')).toBe(Date.parse('2030-01-02T00:00:00Z'));
    expect(parseAttemptDateTime('2030-01-02T10:11:12')).toBe(Date.parse('2030-01-02T10:11:12Z'));
    expect(parseAttemptDateTime('2030-01-02T10:11:12Z')).toBe(Date.parse('2030-01-02T10:11:12Z'));
    for (const bad of ['02/01/2030', '2030-13-01', '2030-01-02T25:00:00', 'yesterday', '2030-01-02Z'])
      expect(parseAttemptDateTime(bad)).toBeNull();
  });
});

describe('lenient responses', () => {
  it('report: sectionID is read as sectionId, extra fields pass through', () => {
    const r = Report.parse({
      testInvitationId: 1,
      testId: '2',
      candidateEmail: 'a@b.co',
      status: 'Complete',
      testName: 'T',
      future: true,
      sections: [{ sectionID: 9, candidateScore: 1, sectionScore: 2, noOfQue: 1, sectionName: 'S', Skills: [] }],
    });
    expect(r.sections![0].sectionId).toBe(9);
    expect((r as any).future).toBe(true);
  });
  it('tests list: {result:{tests}} is unwrapped', () => {
    expect(TestsListResponse.parse({ result: { tests: [{ testId: 1, testName: 'A' }] } }).tests[0].testId).toBe(1);
    expect(TestsListResponse.parse({ tests: [] }).tests).toEqual([]);
  });
});
