// What `attempts list --state pending | in-progress` prints (shared/open-attempts.ts finds the
// rows): the two states the service cannot list, and a row's columns and fields.
import { fieldsOf } from '../../../cli/json-fields.js';
import type { Column } from '../../../output/printer.js';

export const OPEN_STATES = ['pending', 'in-progress'] as const;
export type OpenState = (typeof OPEN_STATES)[number];
export const isOpenState = (s: string): s is OpenState => (OPEN_STATES as readonly string[]).includes(s);

/** A pending or in-progress invitation, with when and how this profile made it. */
export interface OpenAttempt {
  testInvitationId: string;
  testId: string | null;
  name: string | null;
  email: string | null;
  testStatus: string;
  invitedAt: string;
  invitedVia: string;
  sendEmail: boolean;
  testUrl: string | null;
}

export const OPEN_COLUMNS: Column<OpenAttempt>[] = [
  { key: 'testInvitationId', header: 'Invitation', priority: 1, kind: 'id' },
  { key: 'testId', header: 'Test', priority: 6, kind: 'id' },
  { key: 'name', header: 'Name', priority: 4 },
  { key: 'email', header: 'E-mail', priority: 2 },
  { key: 'testStatus', header: 'Status', priority: 3, kind: 'status' },
  { key: 'invitedAt', header: 'Invited', priority: 5, kind: 'date' },
  { key: 'invitedVia', header: 'Via', priority: 7 },
];
export const OPEN_FIELDS = fieldsOf(OPEN_COLUMNS, ['sendEmail', 'testUrl']);
