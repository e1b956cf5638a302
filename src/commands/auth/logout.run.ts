// `assess auth logout`: removes the stored API key of a profile; its other settings stay.
import type { Run } from '../../cli/command.js';
import type logout from './logout.js';

export const run: Run<typeof logout> = async (ctx) => {
  const store = await ctx.config();
  const profile = ctx.globals.profile;
  const had = Boolean((await store.profile(profile)).apiKey);
  if (had) await store.update(profile, ({ apiKey: _drop, ...rest }) => rest);
  ctx.info(had ? `Removed the key of profile '${profile}'.` : `Profile '${profile}' has no stored key.`);
  if (ctx.env.ASSESS_API_KEY) ctx.warn('ASSESS_API_KEY is still set in the environment and will still be used.');
};
