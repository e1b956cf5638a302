import { describe, expect, it } from 'vitest';
import { classifyReturned, inviteBody, inviteSchema } from '../../src/commands/invite/shared/body.js';
import { reattemptSchema } from '../../src/commands/reattempt/command.js';
import { reattemptBody } from '../../src/commands/reattempt/command.run.js';

const base = { testId: '1001', email: 'ann@example.com', name: 'Ann Lee' };

describe('invite body', () => {
  it('spells fields as the spec samples do (callbackURL, redirectURL, ProctoringMode)', () => {
    const input = inviteSchema().parse({
      ...base,
      callbackUrl: 'https://example.com/hook',
      redirectUrl: 'https://example.com/done',
      sendEmail: true,
      stakeholders: 'a@x.com, b@y.com',
      start: '2026-03-01',
      end: '2026-03-08T12:00:00Z',
      tz: '35',
      proctoring: 'image',
      imageProctoring: '1',
      hideInstructions: true,
    });
    expect(inviteBody(input)).toEqual({
      email: 'ann@example.com',
      name: 'Ann Lee',
      callbackURL: 'https://example.com/hook',
      redirectURL: 'https://example.com/done',
      hideInstruction: 1,
      sendEmail: 'yes',
      imageProctoring: 1,
      stakeholderEmails: 'a@x.com,b@y.com',
      startDateTime: '2026-03-01T00:00:00Z',
      endDateTime: '2026-03-08T12:00:00Z',
      timeZoneId: 35,
      ProctoringMode: 'image',
    });
  });

  it('--no-stakeholders sends disable; --no-mandatory-fields makes e-mail and name optional', () => {
    const input = inviteSchema().parse({ testId: '1001', stakeholders: false, mandatoryFields: false });
    expect(inviteBody(input)).toEqual({ disableMandatoryFields: 1, sendEmail: 'no', stakeholderEmails: 'disable' });
  });

  it('a --link invite carries only the fields operation 10 has', () => {
    const input = inviteSchema().parse({ ...base, link: '5002', imageProctoring: '0' });
    expect(inviteBody(input)).toEqual({
      email: 'ann@example.com',
      name: 'Ann Lee',
      sendEmail: 'no',
      imageProctoring: 0,
    });
  });

  it.each([
    [{ stakeholders: 'a@x.com' }, 'stakeholders'],
    [{ stakeholders: false }, 'stakeholders'],
    [{ start: 'now', end: '7d' }, 'start'],
    [{ tz: '3' }, 'tz'],
    [{ proctoring: 'video' }, 'proctoring'],
  ])('--link with %o is refused on %s', (extra, key) => {
    const r = inviteSchema().safeParse({ ...base, link: '5002', ...extra });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual([key]);
    expect(r.error!.issues[0]!.message).toMatch(/cannot be used with --link/);
  });

  it.each([
    [{ email: 'not-an-email' }, 'email'],
    [{ email: undefined }, 'email'],
    [{ name: undefined }, 'name'],
    [{ testId: '10a' }, 'testId'],
    [{ link: '-1' }, 'link'],
    [{ tz: 'U;TC' }, 'tz'],
    [{ stakeholders: 'a@x.com,nope' }, 'stakeholders'],
    [{ imageProctoring: '2' }, 'imageProctoring'],
    [{ proctoring: 'audio' }, 'proctoring'],
    [{ start: '2026-03-08', end: '2026-03-01' }, 'end'],
    [{ start: '2026-03-08' }, 'end'],
    [{ callbackUrl: 'ftp://x' }, 'callbackUrl'],
  ])('rejects %o on %s', (extra, key) => {
    const r = inviteSchema().safeParse({ ...base, ...extra });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual([key]);
  });

  it('classifies the returned status', () => {
    expect(classifyReturned('Pending')).toBe('new');
    expect(classifyReturned('In Progress')).toBe('existing-in-progress');
    expect(classifyReturned('Complete')).toBe('existing-taken');
    expect(classifyReturned('Test Left')).toBe('existing-taken');
    expect(classifyReturned('Terminated')).toBe('existing-taken');
    expect(classifyReturned('Cancelled')).toBe('existing-other');
    expect(classifyReturned(undefined)).toBe('unknown');
  });
});

describe('reattempt body', () => {
  it('is PascalCase per the spec, with sendEmail yes/no', () => {
    const input = reattemptSchema.parse({
      invitationId: '5001',
      start: '2026-03-01',
      end: '2026-03-02',
      tz: '7',
      callbackUrl: 'https://example.com/cb',
      hideInstructions: true,
    });
    expect(reattemptBody(input)).toEqual({
      StartDateTime: '2026-03-01T00:00:00Z',
      EndDateTime: '2026-03-02T00:00:00Z',
      TimeZoneId: 7,
      CallbackUrl: 'https://example.com/cb',
      hideInstruction: 1,
      sendEmail: 'no',
    });
  });

  it.each([
    [{ tz: undefined }, 'tz'],
    [{ start: undefined }, 'start'],
    [{ end: '2026-02-01' }, 'end'],
    [{ tz: '1.5' }, 'tz'],
    [{ invitationId: 'x1' }, 'invitationId'],
  ])('rejects %o on %s', (extra, key) => {
    const r = reattemptSchema.safeParse({
      invitationId: '5001',
      start: '2026-03-01',
      end: '2026-03-02',
      tz: '7',
      ...extra,
    });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual([key]);
  });
});
