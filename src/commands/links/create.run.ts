// links create: builds the link from the flags (a --tz name resolved to its id), creates it and
// prints it; an open link gets a note on how to admit only invited candidates.
import type { Run } from '../../cli/command.js';
import { resolveTz } from '../shared/timezone.js';
import type create from './create.js';
import { printLink } from './shared/view.js';
import { createLinkV2 } from './shared/v2.js';

export const run: Run<typeof create> = async (ctx, { testId, ...flags }) => {
  const { createBody } = await import('./shared/request-body.js');
  const body = createBody({ ...flags, tz: await resolveTz(ctx, flags.tz) });
  const link = await (await ctx.api()).createLink(testId, body);
  ctx.info(`Created test link ${link.testLinkId} '${link.testLinkName}' on test ${testId}.`);
  await printLink(ctx, link);
  if ((link.invitationType ?? body.invitationType) === 'open')
    ctx.info(
      `The link is open${flags.type ? '' : ' (the default)'}: anyone with its URL can take the test. ` +
        `To admit only invited candidates: assess links update ${testId} ${link.testLinkId} --type email`,
    );
};

export const runV2: Run<typeof create> = async (ctx, { testId, ...flags }) =>
  createLinkV2(ctx, testId, { ...flags, tz: await resolveTz(ctx, flags.tz) });
