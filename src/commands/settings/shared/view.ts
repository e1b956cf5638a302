// How a settings object is shown: one line per setting (dotted key: value) on a TTY and in TSV,
// the service's nested object under --json / --ndjson, one CSV row keyed by dotted paths.
import { fieldsOfAnswer } from '../../../cli/json-fields.js';
import type { Context } from '../../../context.js';
import { Printer } from '../../../output/printer.js';
import { flatten } from '../../shared/diff.js';

/** What `--json a,b` may name: the settings object's sections (e.g. windowViolationSettings). */
export const SETTINGS_FIELDS = fieldsOfAnswer('v3.getSettings');

export async function printSettings(ctx: Context, settings: Record<string, unknown>): Promise<void> {
  // Known keys first in schema order, then anything extra the service returned.
  const { settingKeyList } = await import('./apply.js'); // the settings schema is built then
  const present = Object.keys(flatten(settings));
  const keys = [
    ...settingKeyList().filter((k) => present.includes(k)),
    ...present.filter((k) => !settingKeyList().includes(k)),
  ];
  // 38 settings do not fit a small terminal: the view pages like a long table
  await new Printer(ctx).objectPaged(settings, { fields: keys.map((key) => ({ key, header: key })) });
}
