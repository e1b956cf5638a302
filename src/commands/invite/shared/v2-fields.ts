// What `invite --api v2 --json a,b` may name (loaded by the declarations without the v2 side).
import { type FieldList, fieldsOfAnswer } from '../../../cli/json-fields.js';
import { type Column } from '../../../output/printer.js';
import type { InviteInput } from './body.js';

export const BY_LINK: Column[] = [
  { key: 'testInvitationId', header: 'Invitation', kind: 'id' },
  { key: 'testUrl', header: 'URL' },
  { key: 'testAccessTime', header: 'Access' },
];

export const DEFAULT_LINK: Column[] = [
  { key: 'testInvitationId', header: 'Invitation', kind: 'id' },
  { key: 'takeTestURL', header: 'URL' },
];

export const BY_LINK_FIELDS = fieldsOfAnswer('v2.registerByLink', BY_LINK, ['emailed']);

export const DEFAULT_LINK_FIELDS = fieldsOfAnswer('v2.register', DEFAULT_LINK, ['emailed']);

/** What `invite --api v2 --json a,b` may name: the two registers answer with different fields. */
export function v2InviteFields(v: Pick<InviteInput, 'link'>): Promise<FieldList> {
  return v.link ? BY_LINK_FIELDS() : DEFAULT_LINK_FIELDS();
}
