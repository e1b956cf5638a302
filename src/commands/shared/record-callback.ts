// The one step invite, invite --api v2 and reattempt share after the service answers: a
// callback URL given goes into the profile's ledger (callback-ledger.ts), loaded only then.
import type { Context } from '../../context.js';

/** Notes an invitation registered with a callback URL in the profile's ledger (callbacks reconcile checks those). */
export async function recordCallback(
  ctx: Context,
  invitationId: string,
  callbackUrl: string | undefined,
  via: 'invite' | 'reattempt',
  api: 'v3' | 'v2',
): Promise<void> {
  if (!callbackUrl) return;
  const { ledgerPath, noteRegistered } = await import('./callback-ledger.js');
  const { configDir } = await import('../../config/store.js');
  noteRegistered(ctx, ledgerPath(configDir(ctx.env), ctx.globals.profile), { invitationId, callbackUrl, via, api });
}
