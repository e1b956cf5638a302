// The sandbox's own data model (what it stores), distinct from the wire shapes in
// src/api/schemas: routes translate between the two. Timestamps are ISO strings from the
// sandbox clock; ids are safe integers.
import type { InvitationStatus, ProctoringMode, TestSettings } from '../api/schemas/v3.js';

export interface Account {
  accountId: number;
  name: string;
  ownerEmail: string;
  defaultTimeZoneId: number;
}

export interface Skill {
  qbId: number;
  qbName: string;
  questions: number;
  pointsPerQuestion: number;
}

export interface Section {
  sectionId: number;
  sectionName: string;
  sectionType: 'general' | 'coding';
  duration: number; // minutes
  skills: Skill[];
}

export interface SandboxTest {
  testId: number;
  accountId: number;
  testName: string;
  accessKey: string;
  testStatus: 'Active' | 'Inactive';
  sections: Section[];
  defaultTestLinkId: number | null;
}

export type Schedule =
  | { scheduleType: 'validityindays'; scheduleDetails: { invitationValidityInDays: number; timeZoneId: number } }
  | {
      scheduleType: 'timebound' | 'slotwise';
      scheduleDetails: { startDateTime: string; endDateTime: string; timeZoneId: number };
    };

export interface SandboxLink {
  testLinkId: number;
  testId: number;
  accountId: number;
  testLinkName: string;
  testLink: string; // unique token
  testLinkStatus: 'active' | 'inactive';
  invitationType: 'email' | 'open';
  isApiLink: boolean;
  proctoringMode: ProctoringMode;
  stakeholderEmails: string | null;
  schedule: Schedule;
  createdAt: string;
  updatedAt: string;
}

/** Points a candidate scored, per skill, grouped by section, plus seconds used per section. */
export interface AttemptResult {
  sections: { sectionId: number; timeTakenSec: number; skills: { qbId: number; points: number }[] }[];
}

export interface SandboxInvitation {
  testInvitationId: number;
  accountId: number;
  testId: number;
  testLinkId: number;
  email: string;
  name: string;
  status: InvitationStatus;
  invitationtype: 'api' | 'app';
  accessToken: string;
  callbackUrl: string | null;
  redirectUrl: string | null;
  hideInstruction: 0 | 1;
  sendEmail: 'yes' | 'no';
  stakeholderEmails: string | null; // 'disable' turns them off
  proctoringMode: ProctoringMode;
  imageProctoring: 0 | 1 | null;
  invitationType: 'email' | 'open';
  scheduleType: Schedule['scheduleType'];
  accessStart: string | null;
  accessEnd: string | null;
  timeZoneId: number | null;
  reattemptOf: number | null;
  generatedIdentity: boolean; // disableMandatoryFields produced name/e-mail
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  cancelledAt: string | null;
  expiredAt: string | null;
  result: AttemptResult | null;
  /** Which API created it: v2 invitations get v2 callback bodies (absent = v3). */
  apiVersion?: 'v2' | 'v3';
}

/** A completion notification waiting for delivery (delivery itself lives elsewhere). */
export interface CallbackQueueEntry {
  eventId: number;
  testInvitationId: number;
  accountId: number;
  url: string;
  status: InvitationStatus;
  reason: 'status-change' | 'reprocess';
  queuedAt: string;
  payload: Record<string, unknown>;
}

/** An e-mail the sandbox "sent": invitations (sendEmail: yes) and stakeholder reports. */
export interface OutboxEntry {
  emailId: number;
  accountId: number;
  to: string;
  subject: string;
  testInvitationId: number;
  /** The candidate's test URL (invitation e-mails); null for stakeholder e-mails. */
  testUrlPath: string | null;
  /** The report the stakeholder e-mail points at (absent on invitation e-mails). */
  reportUrl?: string | null;
  kind: 'invitation' | 'reattempt' | 'stakeholder';
  sentAt: string;
}

/** One try of a callback delivery. */
export interface DeliveryAttempt {
  n: number;
  at: string;
  url: string;
  /** HTTP status of the answer, or null when there was none (see error). */
  status: number | null;
  error: string | null;
  durationMs: number;
}

/** A callback delivery: one queued notification and its tries (kept in the state, so pending ones resume). */
export interface Delivery {
  /** The queued event's id (store.callbackQueue[].eventId): one delivery per queued event. */
  deliveryId: number;
  testInvitationId: number;
  accountId: number;
  url: string;
  /** The invitation status the notification reports. */
  event: InvitationStatus;
  reason: 'status-change' | 'reprocess';
  state: 'pending' | 'delivered' | 'failed';
  queuedAt: string;
  finishedAt: string | null;
  attempts: DeliveryAttempt[];
  payload: Record<string, unknown>;
}

export interface RequestLogEntry {
  at: string;
  method: string;
  path: string;
  status: number;
  accountId: number | null;
  body: unknown;
}

/** The whole state as one document: the seed, and what GET /_sandbox/state answers. */
export interface SandboxStateDoc {
  clockOffsetMs: number;
  /** Set while the clock is frozen (epoch ms); null while it runs. */
  clockFrozenAtMs: number | null;
  nextIds: { testLink: number; invitation: number; event: number; email: number };
  accounts: Account[];
  tests: SandboxTest[];
  links: SandboxLink[];
  settings: { testId: number; settings: TestSettings }[];
  invitations: SandboxInvitation[];
  callbackQueue: CallbackQueueEntry[];
  outbox: OutboxEntry[];
  requests: RequestLogEntry[];
  deliveries: Delivery[];
}
