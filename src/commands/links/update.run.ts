// links update: the service replaces the whole link (operation 12), so read it, change only what the flags
// name, send it all, and say what changed.
import type { Run } from '../../cli/command.js';
import { UsageError } from '../../errors.js';
import { confirmByReadBack } from '../../api/read-back.js';
import { diffObjects, formatChanges, holdsChanges } from '../shared/diff.js';
import { resolveTz } from '../shared/timezone.js';
import type update from './update.js';
import { LINK_FLAG_KEYS } from './shared/body.js';
import { printLink } from './shared/view.js';
import { updateLinkV2 } from './shared/v2.js';

const FLAG_KEYS: readonly string[] = LINK_FLAG_KEYS;

export const run: Run<typeof update> = async (ctx, { testId, linkId, ...flags }) => {
  if (!FLAG_KEYS.some((k) => flags[k as keyof typeof flags] !== undefined)) {
    const names = FLAG_KEYS.map((k) => `--${k.replace(/[A-Z]/g, (x) => `-${x.toLowerCase()}`)}`);
    throw new UsageError(`links update: nothing to change; give at least one of ${names.join(', ')}`);
  }
  const { bodyOf, mergeBody } = await import('./shared/request-body.js');
  const api = await ctx.api();
  const tz = await resolveTz(ctx, flags.tz);
  const current = await api.getLink(testId, linkId);
  const before = bodyOf(current);
  const body = mergeBody(current, { ...flags, tz });
  const changes = diffObjects(before, body);
  if (!changes.length) {
    ctx.info(`No changes: test link ${linkId} already has these values; nothing was sent.`);
    return printLink(ctx, current);
  }
  // an update whose answer was lost may have been carried out: the link read back says
  const updated = await api.updateLink(testId, linkId, body).catch((err: unknown) =>
    confirmByReadBack(err, {
      read: () => api.getLink(testId, linkId),
      applied: (now) => holdsChanges(bodyOf(now), changes),
      confirmed: (lost) =>
        ctx.warn(
          `the answer to the update of test link ${linkId} was lost (${lost}); read back, the link has the new ` +
            `values (confirmed)`,
        ),
    }),
  );
  ctx.info(`Updated test link ${linkId}:\n${formatChanges(changes)}`);
  await printLink(ctx, updated);
};

export const runV2: Run<typeof update> = async (ctx, { testId, linkId, ...flags }) =>
  updateLinkV2(ctx, testId, linkId, { ...flags, tz: await resolveTz(ctx, flags.tz) });
