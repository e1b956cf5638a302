// What may follow the words of a line: the answer to `assess __complete -- <word…> <current>`, which
// the shell scripts ask at each Tab. The words are read the way commander reads them: a flag's
// value is skipped, `--json [fields]` takes the next word unless it is a flag or, at the noun's
// place, a noun; `--x=v`; nothing is an option after `--`. Only the nouns on the line are built.
// Then it offers: a flag's values after a flag; flags only when the word starts with `-`;
// otherwise the verbs (before any argument) and what the next argument completes to, or the
// command's own flags when nothing else is left to type. So `assess attempts <TAB>` lists verbs.
import type { Command, Option } from 'commander';
import { definitionOf } from '../command.js';
import {
  argCompletes,
  commandShape,
  flagCompletes,
  flagShape,
  jsonFieldsOf,
  type CommandShape,
  type Completes,
  type FlagShape,
} from './collect.js';

/** Candidates (the current word's whole text), and what the shell adds: file or directory names, or no space. */
export interface Reply {
  words: string[];
  then: '' | 'files' | 'dirs' | 'nospace';
  /** What precedes the file name being typed (`--csv=`). */
  prefix: string;
}

// A Tab reads only the shapes of the commands on the line; what a value completes to is read for
// the one value being typed (building every flag's schema made a Tab in `invite` ~4 ms slower).
interface Line {
  program: Command;
  cmd: Command;
  info: CommandShape;
  globals: FlagShape[];
  /** 1: the next word is the flag's value; 2: it is, unless it is a flag (an optional value). */
  skip: 0 | 1 | 2;
  flag: string;
  help: boolean;
  ended: boolean;
  /** The positional arguments of the command so far. */
  pos: string[];
}

export interface Where {
  program: Command;
  /** Builds a noun's commands (the program's Tree). */
  fill: (noun: Command) => Promise<void>;
  profiles: () => Promise<string[]>;
}

/** The reply for `words`, the last of them the one being completed (maybe ''). */
export async function complete(where: Where, words: string[]): Promise<Reply> {
  const line = await walk(where, words.slice(0, -1));
  return offer(line, words.at(-1) ?? '', where);
}

/** The reply as `__complete` prints it: a candidate per line, then `:<then> <prefix>`. */
export function printed(r: Reply): string {
  const safe = r.words.filter((w) => SAFE.test(w));
  return [...safe, `:${r.then}${r.prefix ? ` ${r.prefix}` : ''}`].join('\n') + '\n';
}
// what a shell can take as a word without quoting rules of its own (a space is escaped by bash)
const SAFE = /^[A-Za-z0-9_.,:@+/= -]+$/;

async function walk(where: Where, words: string[]): Promise<Line> {
  const { program } = where;
  const line: Line = {
    program,
    cmd: program,
    info: commandShape(program, []),
    globals: program.options.map(flagShape),
    skip: 0,
    flag: '',
    help: false,
    ended: false,
    pos: [],
  };
  for (const w of words) await read(line, w, where);
  return line;
}

async function read(line: Line, w: string, where: Where): Promise<void> {
  const atRoot = line.info.path.length === 0;
  if (line.skip === 1) return void (line.skip = 0);
  if (line.skip === 2) {
    line.skip = 0;
    if (!w.startsWith('-') && !(atRoot && line.info.subcommands.includes(w))) return;
  }
  if (line.ended) return void line.pos.push(w);
  if (w === '--') return void (line.ended = true);
  if (w.startsWith('-')) {
    line.flag = w.split('=')[0]!;
    if (!w.includes('=')) line.skip = SKIP[takes(line, line.flag)];
    return;
  }
  if (atRoot && w === 'help' && !line.help && !line.pos.length) return void (line.help = true);
  const sub = line.info.subcommands.includes(w) ? line.cmd.commands.find((c) => c.name() === w) : undefined;
  if (!sub) return void line.pos.push(w);
  await where.fill(sub);
  line.cmd = sub;
  line.info = commandShape(sub, [...line.info.path, w]);
  line.pos = [];
}

const SKIP = { required: 1, optional: 2, none: 0 } as const;

/** What a flag takes: the command's own first, then the program's; unknown flags take nothing. */
function takes(line: Line, flag: string): FlagShape['takes'] {
  const named = (list: FlagShape[]) => list.find((f) => f.names.includes(flag));
  return (named(line.info.flags) ?? named(line.globals))?.takes ?? 'none';
}

const NONE: Reply = { words: [], then: '', prefix: '' };
const starting = (list: readonly string[], cur: string) => list.filter((w) => w.startsWith(cur));
const offered = (flags: FlagShape[]) => flags.filter((f) => !f.hidden).flatMap((f) => f.names);
const plain = (list: readonly string[], cur: string): Reply => ({ ...NONE, words: starting(list, cur) });

async function offer(line: Line, typed: string, where: Where): Promise<Reply> {
  let cur = typed;
  let prefix = '';
  if (cur.startsWith('-') && cur.includes('=') && !line.ended) {
    // --type=su: the value of --type
    line.flag = cur.slice(0, cur.indexOf('='));
    prefix = `${line.flag}=`;
    cur = cur.slice(prefix.length);
    line.skip = 1;
  }
  const atRoot = line.info.path.length === 0;
  if (line.skip === 1 || (line.skip === 2 && !cur.startsWith('-'))) {
    // at the noun's place a noun is the noun, not the value (--json tests)
    const extra = line.skip === 2 && atRoot ? line.info.subcommands : [];
    return values(await flagValue(line), extra, cur, prefix, where);
  }
  let subs = line.info.subcommands;
  if (line.ended)
    subs = []; // after --: operands only
  else if (cur.startsWith('-')) return plain([...offered(line.info.flags), ...offered(line.globals)], cur);
  if (line.help) return plain(subs, cur);
  // a verb comes before the command's own arguments (`report 900100 export`: too many arguments)
  if (!atRoot && line.pos.length) subs = [];
  const { args } = line.info;
  if (line.pos.length < args.length || (args.at(-1)?.variadic && args.length))
    return values(await argValue(line, Math.min(line.pos.length, args.length - 1)), subs, cur, prefix, where);
  if (line.ended) return NONE; // no operand is left to type
  if (atRoot) return plain([...subs, 'help'], cur);
  return plain(subs.length ? subs : offered(line.info.flags), cur); // nothing left: the command's own flags
}

const spelled = (flag: string) => (o: Option) => o.long === flag || o.short === flag;

/** What the value of the line's flag completes to: the command's own flag, its --json fields, the program's flag. */
async function flagValue(line: Line): Promise<Completes> {
  const own = line.info.path.length ? line.cmd.options.find(spelled(line.flag)) : undefined;
  const ownValues = own && (await flagCompletes(own, definitionOf(line.cmd)));
  if (ownValues && ownValues.kind !== 'none') return ownValues;
  const fields = line.flag === '--json' ? await jsonFieldsOf(line.cmd) : undefined;
  if (fields?.length) return { kind: 'list', words: fields };
  const global = line.program.options.find(spelled(line.flag));
  return global ? flagCompletes(global, undefined) : { kind: 'none' };
}

async function argValue(line: Line, n: number): Promise<Completes> {
  const c = await argCompletes(line.cmd, n);
  if (c.kind !== 'after') return c;
  const words = c.words[line.pos[c.arg] ?? ''];
  return words ? { kind: 'words', words } : { kind: 'none' };
}

/** The reply for a value that completes to `c`, `extra` words (verbs) offered beside it. */
async function values(c: Completes, extra: string[], cur: string, prefix: string, where: Where): Promise<Reply> {
  switch (c.kind) {
    case 'words':
    case 'profiles': {
      const words = c.kind === 'words' ? c.words : await where.profiles();
      return { ...NONE, words: starting([...extra, ...words], cur).map((w) => prefix + w) };
    }
    case 'list':
      return { ...NONE, words: listed(c.words, cur, prefix) };
    case 'keys': // key=: the value is free text
      if (cur.includes('=')) return NONE;
      return { words: starting(c.words, cur).map((w) => `${prefix}${w}=`), then: 'nospace', prefix: '' };
    case 'file':
    case 'dir':
      return { words: starting(extra, cur), then: c.kind === 'file' ? 'files' : 'dirs', prefix };
    default:
      return plain(extra, cur);
  }
}

/** A comma-separated list: the words not in it yet, after what is typed of it. */
function listed(words: readonly string[], cur: string, prefix: string): string[] {
  const cut = cur.lastIndexOf(',');
  const head = prefix + cur.slice(0, cut + 1);
  const typed = `,${cur.slice(0, cut + 1)}`;
  return starting(
    words.filter((w) => !typed.includes(`,${w},`)),
    cur.slice(cut + 1),
  ).map((w) => head + w);
}

/** The profiles `assess auth list` shows: the config file's, and the one in use. */
export async function profileNames(env: Record<string, string | undefined>): Promise<string[]> {
  const { ConfigStore, configDir, shownNames } = await import('../../config/store.js');
  return shownNames(await new ConfigStore(configDir(env)).profiles(), env.ASSESS_PROFILE ?? 'default');
}
