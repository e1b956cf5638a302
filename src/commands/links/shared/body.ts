// Friendly flags → the spec's test link object (operations 11 and 12). Shared by `links create`
// (every field from flags and defaults) and `links update` (flags merged onto the current link).
import * as z from 'zod/mini';
import { isEmail } from '../../../api/schemas/email.js';
import { flag, zx } from '../../../cli/command.js';
import { shapeOf, type InputOf } from '../../../cli/flags.js';
import { tzArg } from '../../../util/time-zone-arg.js';
import { timeArg } from '../../../util/time.js';

/** `--stakeholders a@x,b@y` as one comma-separated list; false is `--no-stakeholders` (update only). */
const emailList = (clear = '') =>
  z.pipe(
    z.union([z.literal(false), z.string()]),
    z.transform((text: false | string, ctx) => {
      if (text === false) return false;
      const parts = text
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean);
      const bad = parts.filter((p) => !isEmail(p));
      if (parts.length && !bad.length) return parts.join(',');
      const notEmail = bad.length ? `; not an e-mail: ${bad.map((b) => `'${b}'`).join(', ')}` : '';
      ctx.issues.push({
        code: 'custom',
        message: `must be comma-separated e-mail addresses, e.g. ann@example.com,bo@example.com${notEmail}${clear}`,
        input: text,
      });
      return z.NEVER;
    }),
  );

const oneOf = <T extends string>(values: [T, ...T[]]) =>
  z.enum(values, { message: `must be one of ${values.join(', ')}, e.g. ${values[0]}` });

/** The link flags of `links create` and `links update`; cross-flag rules are added per command by `refineLinkFlags`. */
export function linkFlags(mode: 'create' | 'update') {
  const dflt = (d: string) => (mode === 'create' ? ` (default ${d})` : '');
  return {
    name: flag(mode === 'create' ? 'name of the link (required)' : 'new name of the link', { value: 'name' }, () =>
      z.optional(zx.name('--name "Campus 2026"')),
    ),
    status: flag(`active or inactive${dflt('active')}`, { value: 'status' }, () =>
      z.optional(oneOf(['active', 'inactive'])),
    ),
    type: flag(`invitation type: email (only invited candidates) or open${dflt('open')}`, { value: 'type' }, () =>
      z.optional(oneOf(['email', 'open'])),
    ),
    proctoring: flag(`proctoring mode: disabled, image or video${dflt('disabled')}`, { value: 'mode' }, () =>
      z.optional(oneOf(['disabled', 'image', 'video'])),
    ),
    // --no-stakeholders (false) clears the list of an existing link; a new one starts without
    stakeholders: flag(
      'comma-separated e-mails notified when a candidate completes',
      mode === 'update'
        ? { value: 'emails', negate: 'notify nobody when a candidate completes (clears the list)' }
        : { value: 'emails' },
      () => z.optional(emailList(mode === 'update' ? '; --no-stakeholders clears the list' : '')),
    ),
    validDays: flag('schedule: an invitation stays valid for N days (validityindays)', { value: 'n' }, () =>
      z.optional(zx.int(1, 3650, 7)),
    ),
    start: flag(
      'schedule: access opens at T (timebound); YYYY-MM-DD, ISO 8601 or relative (+2d, "in 2d", tomorrow)',
      { value: 'T' },
      () => z.optional(timeArg('future')),
    ),
    end: flag('schedule: access closes at T (after --start)', { value: 'T' }, () => z.optional(timeArg('future'))),
    slotwise: flag(
      'with --start/--end: only inside the daily window given by their time parts (slotwise)',
      mode === 'update' ? { negate: 'make a slotwise link timebound again' } : {},
      () => z.optional(z.boolean()),
    ),
    tz: flag(
      `time zone id or name (assess timezones) the schedule is read in` +
        (mode === 'create' ? '; required with a schedule' : ''),
      { value: 'id|name' },
      () => z.optional(tzArg()),
    ),
  };
}

/** The zod shape of the link flags (each field built when first read). */
export const linkFlagShape = shapeOf(linkFlags('create'));
/** The names of the link flags, without building their schemas. */
export const LINK_FLAG_KEYS = Object.keys(linkFlags('create')) as ReadonlyArray<keyof ReturnType<typeof linkFlags>>;
export type LinkFlags = InputOf<ReturnType<typeof linkFlags>>;
/** The flags once --tz is resolved to the service's id (a name needs the service's list). */
export type ResolvedLinkFlags = Omit<LinkFlags, 'tz'> & { tz?: number };

/** Rules between flags. `create` also needs a name and a complete schedule with its time zone. */
export function refineLinkFlags(v: LinkFlags, c: z.core.$RefinementCtx, mode: 'create' | 'update'): void {
  const issue = (path: string, message: string) => c.addIssue({ code: 'custom', path: [path], message });
  if (v.validDays !== undefined && (v.start || v.end))
    issue('validDays', 'cannot be combined with --start/--end; choose one schedule');
  if (v.validDays !== undefined && v.slotwise)
    issue('slotwise', 'only applies to a --start/--end schedule, not --valid-days');
  if (v.start && v.end && Date.parse(v.end) <= Date.parse(v.start))
    issue('end', `must be after --start (${v.start} → ${v.end})`);
  if (mode === 'update') return;
  if (!v.name) issue('name', 'is required, e.g. --name "Campus 2026"');
  if (v.validDays === undefined && !v.start && !v.end)
    issue('validDays', 'a schedule is required: --valid-days N, or --start T --end T (with --tz ID)');
  if (v.start && !v.end) issue('end', 'is required with --start');
  if (v.end && !v.start) issue('start', 'is required with --end');
  if (v.slotwise && !v.start) issue('slotwise', 'needs --start and --end');
  if ((v.validDays !== undefined || v.start || v.end) && v.tz === undefined)
    issue('tz', 'is required with a schedule, e.g. --tz Asia/Kolkata (or once: assess config set tz Asia/Kolkata)');
}
