// The one step invite, invite --api v2 and reattempt share after the service answers: a
// callback URL given goes into the profile's ledger (callback-ledger.ts).
import { configDir } from '../../config/store.js';
import type { Context } from '../../context.js';
import { ledgerPath, noteRegistered } from './callback-ledger.js';

/** Notes an invitation registered with a callback URL in the profile's ledger (callbacks reconcile checks those). */
export function recordCallback(
  ctx: Context,
  invitationId: string,
  callbackUrl: string | undefined,
  via: 'invite' | 'reattempt',
  api: 'v3' | 'v2',
): void {
  if (!callbackUrl) return;
  noteRegistered(ctx, ledgerPath(configDir(ctx.env), ctx.globals.profile), { invitationId, callbackUrl, via, api });
}
