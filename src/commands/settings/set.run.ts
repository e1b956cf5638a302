// settings set: the service only takes the whole object, so read it, apply the changes, validate
// the result, show the diff, confirm, then send it all.
import type { Run } from '../../cli/command.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { Printer } from '../../output/printer.js';
import { INPUT_MAX_BYTES, readInputText } from '../../util/small-file.js';
import { confirmByReadBack } from '../../api/read-back.js';
import { diffObjects, formatChanges, holdsChanges, type Change } from '../shared/diff.js';
import { confirmAction, nothingChanged, whyNoQuestions } from '../shared/confirm.js';
import type set from './set.js';
import { DIFF_FIELDS } from './set.js';
import { printSettings } from './shared/view.js';

export const run: Run<typeof set> = async (ctx, input) => {
  // the settings schema (every key and its values) is built now, not when the command loads
  const { applyChanges, finaliseSettings, parseSetFlags } = await import('./shared/apply.js');
  const changes = { ...(input.file ? await readSettingsFile(ctx, input.file) : {}), ...parseSetFlags(input.set) };
  const ask = !input.dryRun && !ctx.globals.yes;
  if (ask && !ctx.globals.interactive) {
    throw new UsageError(
      `settings set: replacing the settings needs confirmation and ${whyNoQuestions(ctx)}`,
      'pass --yes to apply without asking, or --dry-run to preview the diff',
    );
  }
  const api = await ctx.api();
  const current = (await api.getSettings(input.testId)) as Record<string, unknown>;
  const { settings, constrained } = finaliseSettings(applyChanges(current, changes));
  if (constrained.length) {
    ctx.warn(
      `allowing copy-paste disables the window violation popup; this is applied:\n${formatChanges(constrained)}`,
    );
  }
  const diff = diffObjects(current, settings);
  if (input.dryRun) return printDryRun(ctx, input.testId, diff);
  if (!diff.length) {
    ctx.info(`No changes: the settings of test ${input.testId} already have these values; nothing was sent.`);
    return printSettings(ctx, current);
  }
  ctx.info(`Changes to the settings of test ${input.testId}:\n${formatChanges(diff)}`);
  if (ask) {
    const name = (current.testSettings as { testName?: unknown } | undefined)?.testName;
    const named = typeof name === 'string' ? ` "${name}"` : '';
    const changes = diff.length === 1 ? 'this change' : `these ${diff.length} changes`;
    const question = `Replace the settings of test ${input.testId}${named} with ${changes}?`;
    if (!(await confirmAction(ctx, question, 'replacing the settings'))) return nothingChanged(ctx);
  }
  // a replace whose answer was lost may have been carried out: the settings read back say
  const stored = (await api.updateSettings(input.testId, settings).catch((err: unknown) =>
    confirmByReadBack(err, {
      read: () => api.getSettings(input.testId),
      applied: (now) => holdsChanges(now, diff),
      confirmed: (lost) =>
        ctx.warn(
          `the answer to the settings update of test ${input.testId} was lost (${lost}); read back, the settings ` +
            `have the new values (confirmed)`,
        ),
    }),
  )) as Record<string, unknown>;
  const drift = diffObjects(settings, stored);
  if (drift.length) ctx.warn(`the service stored different values than were sent:\n${formatChanges(drift)}`);
  ctx.info(`Updated ${diff.length} setting${diff.length === 1 ? '' : 's'} of test ${input.testId}.`);
  await printSettings(ctx, stored);
};

async function readSettingsFile(ctx: Context, path: string): Promise<Record<string, unknown>> {
  const text = await readInputText(path, {
    label: '--file',
    maxBytes: INPUT_MAX_BYTES,
    stdin: ctx.io.stdin,
    signal: ctx.signal,
  });
  const { parseSettingsFile } = await import('./shared/apply.js');
  return parseSettingsFile(path, text);
}

/** With --dry-run the diff is the result: rows of {key, old, new} on stdout. */
async function printDryRun(ctx: Context, testId: string, diff: Change[]): Promise<void> {
  if (!diff.length) ctx.info(`No changes: the settings of test ${testId} already have these values.`);
  if (diff.length || ctx.globals.output !== 'table')
    await new Printer(ctx).list(diff as unknown as Array<Record<string, unknown>>, {
      columns: [
        { key: 'key', header: 'Setting', priority: 1 },
        { key: 'old', header: 'Current', priority: 3 },
        { key: 'new', header: 'New', priority: 2 },
      ],
      fields: DIFF_FIELDS,
    });
  ctx.info('Dry run: nothing was sent.');
}
