// v3 invitations (operations 3, 8, 9, 10). Writes: nothing is required (read.ts).
import * as z from 'zod/mini';
import { invitationStatus, obj, optId, optText } from '../policy.js';

export const Invitation = obj({ testInvitationId: optId, testUrl: optText, status: invitationStatus.schema });
export type Invitation = z.infer<typeof Invitation>;

export const Reattempt = obj({
  testInvitationId: optId,
  testUrl: optText,
  callbackUrlRegistered: optText,
  redirectUrlRegistered: optText,
});
export type Reattempt = z.infer<typeof Reattempt>;

export const Cancelled = obj({ testInvitationId: optId, status: invitationStatus.schema });
export type Cancelled = z.infer<typeof Cancelled>;
