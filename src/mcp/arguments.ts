// A tool call's arguments, checked before the command's own schema sees them: names the tool
// does not have, JSON types the input schema does not allow, required ones left out, and ids
// given as JSON numbers (turned into their digits, as a command line gives them). The messages
// name the argument as the tool calls it; `toolWording` renames the command's flags (`--force`,
// `-o`) in any other usage error to the tool's argument names (`force`, `output`).
import { UsageError } from '../errors.js';
import type { DerivedTool, JsonSchema } from './tool-from-command.js';

/**
 * Unknown names, values of the wrong JSON type, and `-` (standard input or output: the protocol's channel here), are
 * usage errors.
 */
export function checkArguments(tool: DerivedTool, args: Record<string, unknown>): Record<string, unknown> {
  const known = Object.keys(tool.inputSchema.properties);
  const raw: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (!known.includes(key))
      throw new UsageError(`${key}: not an argument of ${tool.name}`, `accepted: ${known.join(', ')}`);
    if (value === '-')
      throw new UsageError(
        `${key}: '-' (standard input or output) is the protocol's channel here`,
        'name a file instead',
      );
    if (key === 'dryRun' || value === undefined || value === null) continue;
    const prop = tool.inputSchema.properties[key]!;
    checkType(key, prop, value);
    const items = prop.items as JsonSchema | undefined;
    if (typeof value === 'number' && prop.type === 'string') raw[key] = digitsOf(key, value);
    else if (Array.isArray(value) && prop.type === 'array' && items?.type === 'string')
      raw[key] = value.map((v: unknown, i) => (typeof v === 'number' ? digitsOf(`${key}[${i}]`, v) : v));
    else raw[key] = value;
  }
  return raw;
}

/** The required arguments still missing once defaults (the profile's time zone, a file's place) are in. */
export function checkRequired(tool: DerivedTool, raw: Record<string, unknown>): void {
  const missing = (tool.inputSchema.required ?? []).filter((k) => raw[k] === undefined);
  if (missing.length)
    throw new UsageError(
      `${missing.join(', ')}: required by ${tool.name}`,
      `add ${missing.map((k) => `"${k}"`).join(' and ')} to the arguments`,
    );
}

/** A usage error's message or fix with the command's flags spelled as the tool's arguments. */
export function toolWording(tool: DerivedTool, text: string): string {
  let out = text;
  for (const opt of tool.command.options) {
    const name = opt.attributeName();
    if (!(name in tool.inputSchema.properties)) continue;
    const spellings = [opt.long, opt.short].filter((s): s is string => typeof s === 'string');
    for (const s of spellings)
      out = out.replace(new RegExp(`(^|[\\s(])${s.replace(/[-]/g, '\\-')}(?![\\w-])`, 'g'), `$1${name}`);
  }
  return out;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  boolean: 'true or false',
  array: 'a list',
  number: 'a number',
  integer: 'a whole number',
};

function checkType(key: string, prop: JsonSchema, value: unknown): void {
  const type = prop.type as string | undefined;
  const ok =
    type === undefined ||
    (type === 'string' && (typeof value === 'string' || typeof value === 'number')) ||
    (type === 'boolean' && typeof value === 'boolean') ||
    (type === 'array' && Array.isArray(value)) ||
    // a number as a string is the command line's form: the command's own schema reads it
    ((type === 'number' || type === 'integer') && (typeof value === 'number' || typeof value === 'string'));
  if (ok) return;
  const example = type === 'array' ? ', e.g. ["…"]' : '';
  throw new UsageError(
    `${key}: must be ${TYPE_WORDS[type!] ?? type}${example}, not ${JSON.stringify(value)}`,
    `give ${key} as ${TYPE_WORDS[type!] ?? type}`,
  );
}

/** An id given as a JSON number (models do), alone or in a list: its digits, as the command line would give them. */
function digitsOf(label: string, value: number): string {
  if (!Number.isSafeInteger(value))
    throw new UsageError(
      `${label}: ${value} is not exact as a JSON number`,
      `give it as a string of digits, e.g. "${label === 'testId' ? '1001' : '900001'}"`,
    );
  return String(value);
}
