// `--tz` and the profile's `tz` setting share one syntax check (an id or a zone name); the
// name is resolved to the service's id only when a command sends it.
import * as z from 'zod/mini';

/**
 * `--tz`: the service's time zone id, or a name from its list (Asia/Kolkata, UTC, Kolkata) that
 * the command resolves to the id before sending (src/commands/shared/timezone.ts).
 */
export const tzArg = () =>
  z.pipe(
    z.string().check(
      z.trim(),
      z.superRefine((v, c) => {
        const message = (m: string) => c.addIssue({ code: 'custom', message: m });
        if (/^\d+$/.test(v)) {
          // ids are positive, as every id of the service (the samples: 1, 200, 1720)
          if (Number(v) === 0)
            message('must be a time zone id of 1 or more, or a name, e.g. --tz Asia/Kolkata or --tz 35');
          else if (v.length > 10 || Number(v) > 2_147_483_647) message('must be at most 2147483647, e.g. --tz 35');
        } else if (/^-\d/.test(v)) message('must be at least 1, e.g. --tz 35');
        else if (!/^[A-Za-z][A-Za-z0-9_+\-/ &().,:]{0,99}$/.test(v))
          message('must be a time zone id or name, e.g. --tz Asia/Kolkata or --tz 35 (assess timezones lists them)');
      }),
    ),
    z.transform((v): number | string => (/^\d+$/.test(v) ? Number(v) : v)),
  );
