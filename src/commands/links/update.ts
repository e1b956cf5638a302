// links update: the service replaces the whole link (operation 12), so read it, change only what
// the flags name, send it all, and say what changed.
import * as z from 'zod/mini';
import { arg, defineCommand, flag, zx } from '../../cli/command.js';
import { UsageError } from '../../errors.js';
import { confirmByReadBack } from '../../api/read-back.js';
import { diffObjects, formatChanges, holdsChanges } from '../shared/diff.js';
import { LINK_FLAG_KEYS, linkFlags, refineLinkFlags } from './shared/body.js';
import { LINK_FIELDS, printLink } from './shared/view.js';
import { resolveTz } from '../shared/timezone.js';
import { refineAnytime, updateLinkV2, V2_LINK_FIELDS } from './shared/v2.js';

const FLAG_KEYS: readonly string[] = LINK_FLAG_KEYS;

export default defineCommand({
  name: 'update',
  args: { testId: arg(() => zx.id('1001')), linkId: arg(() => zx.id('2001')) },
  description: 'Change a test link: only the flags given change; the rest is kept. Shows what changed on stderr',
  examples: [
    'assess links update 1001 5003 --status inactive',
    'assess links update 1001 5003 --end 30d --stakeholders hr@example.com --json',
    'assess links update 1001 5003 --valid-days 14',
  ],
  flags: {
    ...linkFlags('update'),
    anytime: flag('v2 only (--api v2): open at any time, no schedule (accessTime 0)', () => z.optional(z.boolean())),
  },
  check: (v, c) => (v.anytime ? refineAnytime(v, c, 'update') : refineLinkFlags(v, c, 'update')),
  jsonFields: LINK_FIELDS,
  v2: {
    run: async (ctx, { testId, linkId, ...flags }) =>
      updateLinkV2(ctx, testId, linkId, { ...flags, tz: await resolveTz(ctx, flags.tz) }),
    jsonFields: V2_LINK_FIELDS,
    only: { anytime: 'v3 links always have a schedule; the closest: --valid-days 3650' },
  },
  async run(ctx, { testId, linkId, ...flags }) {
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
            `the answer to the update of test link ${linkId} was lost (${lost}); read back, the link has the new values (confirmed)`,
          ),
      }),
    );
    ctx.info(`Updated test link ${linkId}:\n${formatChanges(changes)}`);
    await printLink(ctx, updated);
  },
});
