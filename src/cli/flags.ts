// A command's flags and arguments, declared once: each is its zod schema (built on first use, so a
// run builds only its own command's schemas) plus the little commander needs to spell it (help,
// short name, value name, negation). From these come commander's options and arguments
// (`addDeclared`), the zod object validation uses (`schemaOf`), prompts, completion and docs
// (through commander and the schema), and `describeFlags` for tools that describe commands
// (an MCP server's input schemas).
import { Command, Option } from 'commander';
import * as z from 'zod/mini';
import { schemaWords } from './schema-values.js';

export interface FlagMeta {
  /** One letter: `o` spells `-o, --output`. */
  short?: string;
  /** The value's name in help: `file` spells `--out <file>`; absent: a switch (true when given). */
  value?: string;
  /** The value may be left out: `--json [fields]`. */
  optionalValue?: boolean;
  /** The long name when it is not the kebab-case of the key (`no-mandatory-fields`: only the negation exists). */
  long?: string;
  /** Also declare `--no-<long>` with this help (the value is then false). */
  negate?: string;
  /** commander's default, shown in help as `(default: "…")`; the schema sees it as if typed. */
  default?: string;
  /** May be given again, each value collected into an array. */
  repeat?: boolean;
  /** Accepted but not shown in help. */
  hidden?: boolean;
  /**
   * The values that make it read standard input (`['-']`): refused with --key-stdin, which reads the key from there.
   */
  stdin?: readonly string[];
}

export interface FlagDecl<S extends z.core.$ZodType = z.core.$ZodType> extends FlagMeta {
  readonly kind: 'flag';
  readonly help: string;
  /** The flag's schema: what it accepts as commander hands it (a string, true/false, string[]). */
  readonly schema: () => S;
}

export interface ArgMeta {
  /** `[name]` instead of `<name>`. */
  optional?: boolean;
  /** Takes the rest of the words: `<ids...>`. */
  variadic?: boolean;
  /** What it is (for describeFlags; --help shows arguments in the usage line only). */
  help?: string;
  /** The values (given, or its schema's default) that make it read standard input, as a flag's. */
  stdin?: readonly string[];
  /** Not offered by shell completion: an operand only an older spelling uses (`invite 1001 --csv FILE`). */
  hidden?: boolean;
}

export interface ArgDecl<S extends z.core.$ZodType = z.core.$ZodType> extends ArgMeta {
  readonly kind: 'arg';
  readonly schema: () => S;
}

export type FlagDecls = Record<string, FlagDecl>;
export type ArgDecls = Record<string, ArgDecl>;

type Out<T> = T extends { schema: () => infer S extends z.core.$ZodType } ? z.output<S> : never;
/**
 * The validated input a set of declarations gives: each key's schema output (optional where it may be undefined, as
 * z.object's).
 */
export type InputOf<D> = {
  [K in keyof D as undefined extends Out<D[K]> ? never : K]: Out<D[K]>;
} & { [K in keyof D as undefined extends Out<D[K]> ? K : never]?: Out<D[K]> } extends infer O
  ? { [K in keyof O]: O[K] }
  : never;

function once<S>(make: () => S): () => S {
  let built: S | undefined;
  return () => (built ??= make());
}

/** A flag: `flag('page number', { value: 'n' }, () => z._default(zx.int(1, 1000, 2), 1))`. */
export function flag<S extends z.core.$ZodType>(help: string, schema: () => S): FlagDecl<S>;
export function flag<S extends z.core.$ZodType>(help: string, meta: FlagMeta, schema: () => S): FlagDecl<S>;
export function flag<S extends z.core.$ZodType>(help: string, a: FlagMeta | (() => S), b?: () => S): FlagDecl<S> {
  const [meta, schema] = typeof a === 'function' ? [{}, a] : [a, b!];
  return { kind: 'flag', help, ...meta, schema: once(schema) };
}

/** A positional argument: `arg(() => zx.id('1001'))`, `arg({ optional: true, variadic: true }, () => …)`. */
export function arg<S extends z.core.$ZodType>(schema: () => S): ArgDecl<S>;
export function arg<S extends z.core.$ZodType>(meta: ArgMeta, schema: () => S): ArgDecl<S>;
export function arg<S extends z.core.$ZodType>(a: ArgMeta | (() => S), b?: () => S): ArgDecl<S> {
  const [meta, schema] = typeof a === 'function' ? [{}, a] : [a, b!];
  return { kind: 'arg', ...meta, schema: once(schema) };
}

export const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** `--page-size <n>`, `-o, --output <file>`, `--json [fields]`. */
export function spelling(key: string, f: FlagMeta): string {
  const long = `--${f.long ?? kebab(key)}`;
  const value = f.value === undefined ? '' : f.optionalValue ? ` [${f.value}]` : ` <${f.value}>`;
  return `${f.short ? `-${f.short}, ` : ''}${long}${value}`;
}

/** `<testId>`, `[csvFile]`, `[ids...]`. */
export function argSpelling(key: string, a: ArgMeta): string {
  const inner = `${key}${a.variadic ? '...' : ''}`;
  return a.optional ? `[${inner}]` : `<${inner}>`;
}

const collectValues = (v: string, prev: string[] = []) => [...prev, v];

/** The negatable flags a line gave both as `--x` and as `--no-x` (commander keeps the last one), by long name. */
const BOTH_WAYS = new WeakMap<Command, string[]>();
export const givenBothWays = (cmd: Command): readonly string[] => BOTH_WAYS.get(cmd) ?? [];

/** Adds the declared arguments and flags to a commander Command, in declaration order. */
export function addDeclared(cmd: Command, args: ArgDecls = {}, flags: FlagDecls = {}): void {
  for (const [key, a] of Object.entries(args)) cmd.argument(argSpelling(key, a));
  for (const [key, f] of Object.entries(flags)) {
    const opt = new Option(spelling(key, f), f.help);
    if (f.hidden) opt.hideHelp();
    if (f.repeat) opt.argParser(collectValues);
    if (f.default !== undefined) opt.default(f.default);
    cmd.addOption(opt);
    if (f.negate === undefined) continue;
    const long = f.long ?? kebab(key);
    cmd.addOption(new Option(`--no-${long}`, f.negate));
    // `--stakeholders LIST --no-stakeholders` are alternatives, not an override: noted here, refused by the command
    const forms = new Set<boolean>();
    const note = (form: boolean) => () => {
      forms.add(form);
      if (forms.size === 2 && !givenBothWays(cmd).includes(long)) BOTH_WAYS.set(cmd, [...givenBothWays(cmd), long]);
    };
    cmd.on(`option:${long}`, note(true));
    cmd.on(`option:no-${long}`, note(false));
  }
}

/** The zod object of the declarations (arguments first, then flags), with a command's cross-flag checks. */
export function schemaOf<D extends Record<string, FlagDecl | ArgDecl>>(
  decls: D,
  check?: (v: InputOf<D>, c: z.core.$RefinementCtx) => void,
): z.ZodMiniType<InputOf<D>> {
  const object = z.object(Object.fromEntries(Object.entries(decls).map(([k, d]) => [k, d.schema()])));
  return (check
    ? object.check(z.superRefine(check as (v: unknown, c: z.core.$RefinementCtx) => void))
    : object) as unknown as z.ZodMiniType<InputOf<D>>;
}

/** The zod shape of declarations, each field's schema built when first read (`z.object(shapeOf(…))`). */
export function shapeOf<D extends Record<string, FlagDecl | ArgDecl>>(
  decls: D,
): { [K in keyof D]: ReturnType<D[K]['schema']> } {
  const shape = {} as { [K in keyof D]: ReturnType<D[K]['schema']> };
  for (const [k, d] of Object.entries(decls)) Object.defineProperty(shape, k, { get: d.schema, enumerable: true });
  return shape;
}

/** One flag or argument as a tool describing commands sees it (`describeFlags`). */
export interface DescribedFlag {
  /** The input key: `pageSize`. */
  name: string;
  kind: 'flag' | 'arg';
  /** `--page-size` (flags), `<testId>` (arguments). */
  label: string;
  help: string;
  /** The zod schema that validates it (alone; cross-flag checks run on the whole input). */
  schema: z.core.$ZodType;
  short?: string;
  /** The value's name (`n`, `file`); absent for a switch. */
  value?: string;
  /** It must be given (its schema refuses undefined and no default fills it). */
  required: boolean;
  /** A fixed set of accepted words (enum values, or the completion the schema declares). */
  choices?: string[];
  /** commander's default, as typed. */
  default?: string;
  variadic?: boolean;
  repeat?: boolean;
  hidden?: boolean;
  /** `--no-<long>` also exists, with this help. */
  negate?: string;
}

/** Every argument and flag a definition declares, in order (arguments first). */
export function describeFlags(def: { args?: ArgDecls; flags?: FlagDecls }): DescribedFlag[] {
  const out: DescribedFlag[] = [];
  const common = (name: string, schema: z.core.$ZodType, given?: string) => {
    const { meta, values } = schemaWords(schema);
    const choices = values ?? (Array.isArray(meta) ? [...(meta as readonly string[])] : undefined);
    return {
      name,
      schema,
      required: given === undefined && !z.safeParse(schema, undefined).success,
      ...(choices?.length ? { choices } : {}),
    };
  };
  for (const [key, a] of Object.entries(def.args ?? {}))
    out.push({
      ...common(key, a.schema()),
      kind: 'arg',
      label: `<${key}>`,
      help: a.help ?? '',
      ...(a.variadic ? { variadic: true } : {}),
    });
  for (const [key, f] of Object.entries(def.flags ?? {})) {
    const { kind: _kind, schema, help, long, optionalValue: _o, stdin: _s, ...meta } = f;
    out.push({ ...common(key, schema(), f.default), ...meta, kind: 'flag', label: `--${long ?? kebab(key)}`, help });
  }
  return out;
}
