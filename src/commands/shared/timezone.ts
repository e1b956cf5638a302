// Time zones by name: `--tz Asia/Kolkata` (or `UTC`, or `Kolkata`) is resolved to the service's
// id through its time-zone list, kept per profile and base URL for a day, so a script does not
// list the zones on every call. An id (digits) is used as it is.
import { join } from 'node:path';
import * as z from 'zod/mini';
import type { TimeZone } from '../../api/read/v3/timezones.js';
import { configDir } from '../../config/store.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { makeDirs } from '../../util/private-dir.js';
import { readOwnCache } from '../../util/regular-file.js';

export const TZ_CACHE_TTL_MS = 24 * 3600 * 1000;

interface Cached {
  baseUrl: string;
  fetchedAt: string;
  zones: TimeZone[];
}

function cachePath(ctx: Context): string {
  return join(configDir(ctx.env), 'cache', `timezones-${ctx.globals.profile}.json`);
}

/** The service's time zones, from the cache when it is fresh (fresh: false forces a fetch). */
export async function timeZones(ctx: Context, opts: { fresh?: boolean } = {}): Promise<TimeZone[]> {
  const { baseUrl } = await ctx.connection();
  const path = cachePath(ctx);
  const cached = opts.fresh || ctx.globals.sandbox ? undefined : await readCache(path, baseUrl, ctx.now());
  if (cached) return cached;
  const { timeZones: zones } = await (await ctx.api()).listTimeZones();
  // an answer without the list (null, or left out) is not kept: a day of "no time zone named …"
  if (!ctx.globals.sandbox && zones.length) {
    try {
      makeDirs(join(configDir(ctx.env), 'cache'));
      const { writeFileAtomic } = await import('../../files/atomic.js'); // its node:crypto only when a file is written
      writeFileAtomic(path, JSON.stringify({ baseUrl, fetchedAt: ctx.now().toISOString(), zones } satisfies Cached));
    } catch {
      // no cache then: the next call asks the service again
    }
  }
  return zones;
}

/** A far larger list than any service's (a few hundred zones, ~100 KB). */
const CACHE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * The cached zones when they are this base URL's, fetched in the last day (not in the future: a
 * clock set back, or a hand-edited file, would keep them for ever) and every entry a zone as the
 * reader reads one; otherwise undefined, and the list is fetched again. A file that is not a
 * small regular file of this user's is not read at all (a FIFO would block, /dev/zero fill memory).
 */
async function readCache(path: string, baseUrl: string, now: Date): Promise<TimeZone[] | undefined> {
  const text = readOwnCache(path, CACHE_MAX_BYTES);
  if (text === undefined) return undefined;
  let c: Partial<Cached> | null;
  try {
    c = JSON.parse(text) as Partial<Cached> | null;
  } catch {
    return undefined;
  }
  const age = now.getTime() - Date.parse(String(c?.fetchedAt));
  if (c?.baseUrl !== baseUrl || !(age >= 0 && age < TZ_CACHE_TTL_MS) || !Array.isArray(c.zones)) return undefined;
  // the reader's own schema, loaded only when a cache is there to check
  const { TimeZone } = await import('../../api/read/v3/timezones.js');
  const zones = z.safeParse(z.array(TimeZone), c.zones);
  return zones.success && zones.data.length ? zones.data : undefined;
}

const fold = (s: string) =>
  s
    .toLowerCase()
    .replace(/[\s_]+/g, ' ')
    .trim();

/** Zones matching a name: exact (IANA or display name), else the city part, else a substring. */
export function matchZones(zones: TimeZone[], text: string): TimeZone[] {
  const t = fold(text);
  const exact = zones.filter((z) => fold(z.name ?? '') === t || fold(z.displayName ?? '') === t);
  if (exact.length) return exact;
  const city = zones.filter((z) => fold((z.name ?? '').split('/').pop() ?? '') === t);
  if (city.length) return city;
  return zones.filter((z) => fold(z.name ?? '').includes(t) || fold(z.displayName ?? '').includes(t));
}

/** A zone as people see it: `Asia/Kolkata (id 35)`; `id 35` when the list does not name it. */
export function zoneWithId(zones: readonly TimeZone[], id: unknown): string {
  const z = zones.find((x) => String(x.timeZoneId) === String(id));
  const name = z?.name || z?.displayName;
  return name ? `${name} (id ${String(id)})` : `id ${String(id)}`;
}

/** `--tz` as typed → the service's id; undefined stays undefined. */
export async function resolveTz(
  ctx: Context,
  value: string | number | undefined,
  flag = '--tz',
): Promise<number | undefined> {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return value;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const found = matchZones(await timeZones(ctx), value);
  const show = (z: TimeZone) => zoneWithId([z], z.timeZoneId);
  if (found.length === 1) return Number(found[0]!.timeZoneId);
  if (!found.length)
    throw new UsageError(
      `${flag}: no time zone named '${value}'`,
      'list them: assess timezones --search TEXT (an id or a name such as Asia/Kolkata or UTC)',
    );
  throw new UsageError(
    `${flag}: '${value}' matches ${found.length} time zones: ` +
      `${found.slice(0, 5).map(show).join(', ')}${found.length > 5 ? ', …' : ''}`,
    'give the full name or the id',
  );
}
