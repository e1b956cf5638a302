// What identifies an operation's answer: without it, a 2xx JSON body is not the service's answer
// to that operation (read.ts). Field names are matched as the tolerant reader matches them (any
// case, `_`, `-` or spaces); a value that is null or '' does not count.
import type { Identifies } from '../operations/types.js';
import type { Identify } from './read.js';
import { foldKey } from './policy.js';

function valueOf(body: unknown, key: string): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const want = foldKey(key);
  const k = Object.keys(body).find((name) => foldKey(name) === want);
  return k === undefined ? undefined : (body as Record<string, unknown>)[k];
}

const present = (v: unknown) => v !== undefined && v !== null && v !== '';
const and = (keys: readonly string[]) =>
  keys.length < 2 ? keys.join('') : `${keys.slice(0, -1).join(', ')} and ${keys.at(-1)}`;
const or = (keys: readonly string[]) =>
  keys.length < 2 ? keys.join('') : `${keys.slice(0, -1).join(', ')} or ${keys.at(-1)}`;

/** Every one of these fields (an invitation: its id and its URL). */
export const allOf =
  (...keys: string[]): Identify =>
  (body) => {
    const missing = keys.filter((k) => !present(valueOf(body, k)));
    return missing.length ? and(missing) : undefined;
  };

/** At least one of these fields (a test: its id, its name or its sections). */
export const anyOf =
  (...keys: string[]): Identify =>
  (body) =>
    keys.some((k) => present(valueOf(body, k))) ? undefined : `any of ${or(keys)}`;

/** A listing: a bare array, or an object holding its list under `key` (null is an empty list). */
export const listOf =
  (key: string): Identify =>
  (body) => {
    if (Array.isArray(body)) return undefined;
    const v = valueOf(body, key);
    return Array.isArray(v) || v === null ? undefined : `its ${key} list`;
  };

/** A list whose key is not public (time zones, v2 section scores): a bare array, or any list inside. */
export const someList: Identify = (body) =>
  Array.isArray(body) ||
  (body && typeof body === 'object' && Object.values(body as Record<string, unknown>).some(Array.isArray))
    ? undefined
    : 'a list';

/** Any JSON object (or, for an answer the CLI needs nothing from, any JSON value at all). */
export const anObject: Identify = (body) =>
  body && typeof body === 'object' && !Array.isArray(body) ? undefined : 'an object';

/** The check an operation's row declares (src/api/operations/types.ts `Identifies`). */
export function identifyOf(spec: Identifies | undefined): Identify | undefined {
  if (spec === undefined) return undefined;
  if (spec === 'object') return anObject;
  if ('all' in spec) return allOf(...spec.all);
  if ('any' in spec) return anyOf(...spec.any);
  if ('list' in spec) {
    const listed = listOf(spec.list);
    return spec.orAnyList ? (body) => listed(body) && someList(body) : listed;
  }
  return spec.nullIsEmpty ? (body) => (body === null ? undefined : someList(body)) : someList;
}
