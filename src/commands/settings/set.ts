// settings set: the whole settings object changed, validated, diffed and confirmed (./set.run.ts).
import * as z from 'zod/mini';
import { defineCommand, zx, arg, flag } from '../../cli/command.js';
import { SETTINGS_FIELDS } from './shared/view.js';

/** --dry-run prints the diff: one {key, old, new} row per changed setting. */
export const DIFF_FIELDS = ['key', 'old', 'new'];

export default defineCommand({
  name: 'set',
  args: {
    testId: arg(() => zx.id('1001')),
  },
  description:
    'Change settings of a test: reads the current settings, applies --set/--file, validates the whole object, shows ' +
    'the diff and asks before sending (--yes skips; --dry-run only prints the diff)',
  examples: [
    'assess settings set 1001 --set questionSettings.randomQuestions=1 --set testSettings.testAliasName="Java L2"',
    'assess settings set 1001 --set windowViolationSettings.copyPaste=1 --dry-run',
    'assess settings set 1001 --file settings.json --yes',
  ],
  flags: {
    set: flag(
      'change one setting, e.g. questionSettings.randomAnswers=1 (repeatable)',
      { value: 'key=value', repeat: true },
      () =>
        // completion offers the keys (the settings schema is built only when completion asks)
        z._default(z.array(z.string()), []).register(z.globalRegistry, {
          completion: { keys: async () => (await import('./shared/apply.js')).settingKeyList() },
        }),
    ),
    file: flag(
      'JSON with the whole settings object or part of it (as `settings get --json` prints; - reads standard input)',
      { value: 'file', stdin: ['-'] },
      () => z.optional(z.string().check(z.minLength(1, 'must name a file, e.g. --file settings.json'))),
    ),
    dryRun: flag('print the diff and send nothing', () => z._default(z.boolean(), false)),
  },
  check: (v, c) => {
    if (!v.set.length && v.file === undefined)
      c.addIssue({
        code: 'custom',
        path: ['set'],
        message: 'give at least one --set section.field=value, or --file F',
      });
  },
  jsonFields: (input) => (input.dryRun ? DIFF_FIELDS : SETTINGS_FIELDS()),
  v2: { unsupported: 'v2 has no test settings' },
  handler: () => import('./set.run.js'),
});
