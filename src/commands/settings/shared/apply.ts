// Turning `--set section.field=value` and `--file F` into changes of the settings object, and
// validating the result. Everything here runs before a request is sent (or, for the whole-object
// check, before the update is sent), so mistakes are usage errors (exit 2).
import * as z from 'zod/mini';
import { unwrapResult } from '../../../api/schemas/common.js';
import { TestSettings } from '../../../api/schemas/settings.js';
import { UsageError } from '../../../errors.js';
import { flatten, type Change } from '../../shared/diff.js';
import { schemaValues } from '../../../cli/schema-values.js';
import { jsonPlaces } from '../../../util/json-places.js';

/** What these walks read of a schema: zod mini's public `def` (its type, the wrapped schema, an object's shape). */
interface Def {
  type: string;
  innerType?: z.core.$ZodType;
  shape?: Record<string, z.core.$ZodType>;
}
const defOf = (s: z.core.$ZodType): Def => (s as z.ZodMiniType).def as Def;

function unwrap(s: z.core.$ZodType): z.core.$ZodType {
  let cur = s;
  let def = defOf(cur);
  while ((def.type === 'default' || def.type === 'optional' || def.type === 'nullable') && def.innerType)
    def = defOf((cur = def.innerType));
  return cur;
}

function collectLeaves(s: z.core.$ZodType, prefix: string, out: Map<string, z.core.$ZodType>): void {
  const u = unwrap(s);
  const def = defOf(u);
  if (def.type === 'object') {
    for (const [k, v] of Object.entries(def.shape ?? {})) collectLeaves(v, prefix ? `${prefix}.${k}` : k, out);
  } else out.set(prefix, u);
}

/** Every settable key (dotted path) with the schema of its value, derived from TestSettings. */
export const SETTING_KEYS: ReadonlyMap<string, z.core.$ZodType> = (() => {
  const m = new Map<string, z.core.$ZodType>();
  collectLeaves(TestSettings, '', m);
  // The spec numbers typeOfTest 1 (multiple) / 2 (single), production 0 (multiple) / 1 (single)
  // (vendor facts): the CLI cannot tell which convention a service uses, so it takes all three.
  m.set('testSettings.typeOfTest', z.literal([0, 1, 2])); // worded by accepted()
  return m;
})();

export const settingKeyList = (): string[] => [...SETTING_KEYS.keys()];

/** Edit distance, to suggest the key a typo meant. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0]!;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = d[j]!;
      d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1));
      prev = cur;
    }
  }
  return d[b.length]!;
}

/** Two lines: the key, and the near one or where every key is listed (the settings of a test, by key). */
function unknownKey(where: string, key: string): UsageError {
  return new UsageError(`${where}: unknown setting '${key}'`, keysHint(key));
}

/**
 * A key of a file that is no setting, named by the known part of its path only: the rest is the
 * file's content (a file named by mistake may hold a secret).
 */
function unknownInFile(where: string, key: string): UsageError {
  const parts = key.split('.');
  let known = '';
  for (let n = parts.length - 1; n > 0 && !known; n--) {
    const prefix = parts.slice(0, n).join('.');
    if (settingKeyList().some((k) => k.startsWith(`${prefix}.`))) known = prefix;
  }
  return new UsageError(
    `${where}: ${known ? `an unknown setting in ${known}` : 'an unknown settings section'}`,
    keysHint(key),
  );
}

function keysHint(key: string): string {
  const leaf = key.split('.').pop()!;
  let near = settingKeyList().filter((k) => k.endsWith(`.${leaf}`));
  if (!near.length) near = settingKeyList().filter((k) => distance(k, key) <= 3);
  const hint = near.length ? `did you mean ${near.join(' or ')}? ` : '';
  return `${hint}see every key: assess settings get <testId>`;
}

const FLAG_WORDS: Record<string, number> = { true: 1, yes: 1, on: 1, false: 0, no: 0, off: 0 };

/** A --set value as typed: text for text fields, a whole number (or yes/no for flags) otherwise. */
export function coerceSetting(key: string, raw: string): unknown {
  const schema = SETTING_KEYS.get(key)!;
  if (defOf(schema).type === 'string') return raw;
  const t = raw.trim().toLowerCase();
  if (/^-?\d+$/.test(t)) return Number(t);
  if (t in FLAG_WORDS) return FLAG_WORDS[t];
  return raw;
}

const TYPE_OF_TEST_NOTE = ' (spec: 1 multiple, 2 single; production: 0 multiple, 1 single)';

/**
 * What a setting accepts, in words, and a value it takes, from its schema: zod's own wording
 * ("Invalid input: expected number, received string", "Too small: expected number to be >=0")
 * is not ours.
 */
function accepted(key: string): { what: string; example: string | number } {
  const schema = SETTING_KEYS.get(key)!;
  const def = defOf(schema);
  const values = schemaValues(schema);
  if (values) {
    const words = values.length > 1 ? `${values.slice(0, -1).join(', ')} or ${values.at(-1)}` : values.join('');
    // the second value: 1 for a flag, and the typeOfTest both conventions take
    return {
      what: `${words}${key === 'testSettings.typeOfTest' ? TYPE_OF_TEST_NOTE : ''}`,
      example: Number(values[1] ?? values[0]),
    };
  }
  if (def.type === 'number') {
    const { minimum, maximum } = z.toJSONSchema(schema, { io: 'input' }) as { minimum?: number; maximum?: number };
    const [min, max] = [minimum ?? 0, maximum];
    return {
      what: max === undefined ? `a whole number from ${min}` : `a whole number from ${min} to ${max}`,
      example: Math.min(max ?? 3, min + 3),
    };
  }
  return { what: 'text, not empty', example: 'Backend developer' };
}

function checkValue(where: string, key: string, value: unknown, shown: string, fromFile: boolean): void {
  if (z.safeParse(SETTING_KEYS.get(key)!, value).success) return;
  const { what, example } = accepted(key);
  const path = key.split('.');
  const nested = path.reduceRight<unknown>((inner, part) => ({ [part]: inner }), example);
  throw new UsageError(
    `${where} ${key}: must be ${what} (got ${shown})`,
    fromFile
      ? `e.g. ${JSON.stringify(nested)}`
      : `e.g. --set ${key}=${typeof example === 'string' ? JSON.stringify(example) : example}`,
  );
}

/** `--set a.b=1 --set c.d=x` → `{'a.b': 1, 'c.d': 'x'}`, each key known and each value valid. */
export function parseSetFlags(list: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const item of list) {
    const m = /^\s*([A-Za-z][A-Za-z0-9.]*)\s*=(.*)$/s.exec(item);
    if (!m)
      throw new UsageError(
        `--set: expected section.field=value, e.g. --set windowViolationSettings.copyPaste=1 ` +
          `(got ${JSON.stringify(item)})`,
      );
    const key = m[1]!;
    if (!SETTING_KEYS.has(key)) throw unknownKey('--set', key);
    const value = coerceSetting(key, m[2]!);
    checkValue('--set', key, value, JSON.stringify(m[2]), false);
    out[key] = value;
  }
  return out;
}

/**
 * A settings file: the whole settings object or any part of it (as `settings get --json` prints
 * it). Values keep their JSON types: `"1"` for a flag is an error, not a guess.
 */
export function parseSettingsFile(path: string, text: string): Record<string, unknown> {
  const where = `--file ${path}`;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // V8's message quotes the text around the error: the line and column say where instead
    const at = jsonPlaces(text).error;
    throw new UsageError(
      `${where}: ${at ? `line ${at.line}, column ${at.column}: ` : ''}not valid JSON${at ? ` (${at.problem})` : ''}`,
      'the file must hold a settings object, e.g. {"windowViolationSettings": {"copyPaste": 1}}',
    );
  }
  const wrapped = data !== unwrapResult(data);
  data = unwrapResult(data);
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new UsageError(
      `${where}: must hold a JSON object of settings sections, e.g. {"questionSettings": {"randomQuestions": 1}}`,
    );
  const lines = jsonPlaces(text).lines;
  const at = (key: string) => {
    const line = lines.get(wrapped ? `result.${key}` : key);
    return line === undefined ? where : `${where}: line ${line}`;
  };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flatten(data))) {
    if (!SETTING_KEYS.has(key)) {
      if (settingKeyList().some((k) => k.startsWith(`${key}.`)))
        throw new UsageError(`${at(key)}: ${key}: must be an object of settings (got ${typeWord(value)})`);
      throw unknownInFile(at(key), key);
    }
    // the value's type, never the value: the file's content stays out of messages
    checkValue(`${at(key)}:`, key, value, typeWord(value), true);
    out[key] = value;
  }
  return out;
}

const typeWord = (v: unknown) => (Array.isArray(v) ? 'an array' : v === null ? 'null' : `a ${typeof v}`);

/** A deep copy of `base` with each dotted key set to its value. */
export function applyChanges(base: Record<string, unknown>, changes: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(base);
  for (const [key, value] of Object.entries(changes)) {
    const parts = key.split('.');
    let cur = out;
    for (const p of parts.slice(0, -1)) {
      const next = cur[p];
      cur = cur[p] =
        typeof next === 'object' && next !== null && !Array.isArray(next) ? (next as Record<string, unknown>) : {};
    }
    cur[parts[parts.length - 1]!] = value;
  }
  return out;
}

export interface Finalised {
  /** The object to send: what the service returned, the user's changes, the constraint applied. */
  settings: Record<string, unknown>;
  /** What the copy-paste/popup constraint changed (empty when nothing). */
  constrained: Change[];
}

/**
 * Applies the service's rule that allowing copy-paste disables the window violation popup.
 * Nothing else is checked here: the user's changes were validated as they were parsed, and the
 * values the service returned go back unchanged (even ones the CLI would not take from a user,
 * e.g. production's typeOfTest 0), with fields the CLI does not know kept.
 */
export function finaliseSettings(merged: Record<string, unknown>): Finalised {
  const settings = structuredClone(merged);
  const constrained: Change[] = [];
  const w = settings.windowViolationSettings as Record<string, unknown> | undefined;
  const d = w?.displayViolationSettings as Record<string, unknown> | undefined;
  if (w && d && Number(w.copyPaste) === 1 && d.displayViolationPopUp !== 0) {
    constrained.push({
      key: 'windowViolationSettings.displayViolationSettings.displayViolationPopUp',
      old: d.displayViolationPopUp,
      new: 0,
    });
    d.displayViolationPopUp = 0;
  }
  return { settings, constrained };
}
