// The fish completion script: `complete` lines conditioned on the command path, which a helper
// works out from the words before the cursor the way commander reads them (the same walk as the
// bash script: a flag's value is skipped, `--json [fields]` takes the next word unless it is a
// flag or, at the noun's place, a noun; nothing is an option after `--`). fish offers flags only
// once a `-` is typed, so verbs come first by itself; verbs only before the command's arguments.
import type { ArgInfo, CommandInfo, Completes, CompletionTree, FlagInfo } from './collect.js';

/** A fish single-quoted string. */
const q = (s: string) => `'${s.replace(/[\\']/g, (c) => `\\${c}`)}'`;
const key = (path: string[]) => path.join(' ');
const SAFE = /^[A-Za-z0-9_.,:@+/= -]+$/;
const list = (words: readonly string[]) => words.filter((w) => SAFE.test(w)).map((w) => w.replace(/ /g, '\\ '));

function valueSpec(f: FlagInfo): string {
  const c = f.completes;
  if (f.takes === 'none') return '';
  if (c.kind === 'file') return ' -rF';
  if (c.kind === 'dir') return " -xa '(__fish_complete_directories)'";
  if (c.kind === 'words' || c.kind === 'list')
    return ` -${f.takes === 'required' ? 'x' : ''}a ${q(list(c.words).join(' '))}`;
  if (c.kind === 'keys')
    return ` -xa ${q(
      list(c.words)
        .map((w) => `${w}=`)
        .join(' '),
    )}`;
  if (c.kind === 'printed') {
    const field = c.field.replace(/[^A-Za-z0-9_]/g, '');
    const run = `command assess ${c.command.join(' ')} --json ${field} </dev/null 2>/dev/null`;
    return ` -xa ${q(`(${run} | string replace -rf '.*"${field}":"([A-Za-z0-9._-]*)".*' '$1')`)}`;
  }
  return f.takes === 'required' ? ' -x' : '';
}

function flagLine(cond: string | null, f: FlagInfo): string | null {
  const long = f.names.find((n) => n.startsWith('--'));
  const short = f.names.find((n) => /^-[^-]$/.test(n));
  if (f.hidden || !long) return null;
  return `complete -c assess -n ${q(cond ?? '__assess_options')} -l ${long.slice(2)}${short ? ` -s ${short.slice(1)}` : ''}${valueSpec(f)}`;
}

function argLines(i: CommandInfo, a: ArgInfo, n: number): string[] {
  const at = (extra = '') => `__assess_arg ${q(key(i.path))} ${n} ${a.variadic ? 'variadic' : 'one'}${extra}`;
  const c: Completes = a.completes;
  if (c.kind === 'file') return [`complete -c assess -n ${q(at())} -F`];
  if (c.kind === 'dir') return [`complete -c assess -n ${q(at())} -xa '(__fish_complete_directories)'`];
  if (c.kind === 'words') return [`complete -c assess -n ${q(at())} -xa ${q(list(c.words).join(' '))}`];
  if (c.kind === 'after')
    return Object.entries(c.words)
      .filter(([w]) => SAFE.test(w) && !w.includes(' '))
      .map(([w, words]) => `complete -c assess -n ${q(at(` ${c.arg} ${w}`))} -xa ${q(list(words).join(' '))}`);
  return [];
}

/** `case` labels of a fish switch: `'links create|--name' …`. */
const labels = (path: string[], names: string[]) => names.map((n) => q(`${key(path)}|${n}`)).join(' ');

function takesFunction(tree: CompletionTree): string {
  const lines: string[] = [];
  for (const t of ['required', 'optional', 'none'] as const) {
    const own = tree.commands.flatMap((i) => {
      const names = i.flags.filter((f) => f.takes === t).flatMap((f) => f.names);
      return names.length ? [labels(i.path, names)] : [];
    });
    if (own.length)
      lines.push(`        case ${own.join(' ')}\n            echo ${t === 'required' ? 2 : t === 'optional' ? 1 : 0}`);
  }
  for (const t of ['required', 'optional'] as const) {
    const names = tree.globals.filter((f) => f.takes === t).flatMap((f) => f.names);
    if (names.length)
      lines.push(
        `        case ${names.map((n) => q(`*|${n}`)).join(' ')}\n            echo ${t === 'required' ? 2 : 1}`,
      );
  }
  return `function __assess_takes --description 'assess: 2 if flag $argv[2] of command $argv[1] takes a value, 1 if optionally'
    switch "$argv[1]|$argv[2]"
${lines.join('\n')}
        case '*'
            echo 0
    end
end`;
}

function subsFunction(tree: CompletionTree): string {
  const cases = tree.commands
    .filter((i) => i.subcommands.length)
    .map((i) => `        case ${q(key(i.path))}\n            printf '%s\\n' ${i.subcommands.join(' ')}`);
  return `function __assess_subs --description 'assess: the verbs of command $argv[1]'
    switch "$argv[1]"
${cases.join('\n')}
    end
end`;
}

const HELPERS = `# "@path" on the first line ("--@path" after --), then the positional arguments typed after that command
function __assess_state
    set -l words (commandline -opc)
    set -e words[1]
    set -l path ''
    set -l pos
    set -l skip 0
    set -l ended ''
    for w in $words
        if test $skip = 1
            set skip 0
            continue
        end
        if test $skip = 2
            set skip 0
            # at the noun's place a noun is the noun, not the value (noValueBeforeCommand, src/cli/program.ts)
            if not string match -q -- '-*' $w
                test -z "$path"; and contains -- $w (__assess_subs ''); or continue
            end
        end
        if test -n "$ended"
            set -a pos $w
            continue
        end
        if test "$w" = --
            set ended --
            continue
        end
        if string match -q -- '-*' $w
            if not string match -q -- '*=*' $w
                switch (__assess_takes "$path" $w)
                    case 2
                        set skip 1
                    case 1
                        set skip 2
                end
            end
            continue
        end
        if contains -- $w (__assess_subs "$path")
            set path (string trim -- "$path $w")
            set pos
        else
            set -a pos $w
        end
    end
    echo "$ended@$path"
    # one line each; none at all when there are none (printf with no argument prints an empty line)
    for p in $pos
        printf '%s\\n' $p
    end
end

# true when the words before the cursor name command $argv[1] (with "bare": and no argument of it yet)
function __assess_at
    set -l s (__assess_state)
    test "$s[1]" = "@$argv[1]"; or return 1
    test "$argv[2]" != bare; or test (count $s) -eq 1
end

function __assess_options --description 'assess: true before --, where words may be options'
    set -l s (__assess_state)
    not string match -q -- '--@*' $s[1]
end

# command $argv[1], positional argument $argv[2] (from 0; "variadic": or later), and
# optionally argument $argv[4] typed as $argv[5]
function __assess_arg
    set -l s (__assess_state)
    test (string replace -r '^--' '' -- $s[1]) = "@$argv[1]"; or return 1 # after -- too: operands
    set -l n (math (count $s) - 1)
    if test "$argv[3]" = variadic
        test $n -ge $argv[2]; or return 1
    else
        test $n -eq $argv[2]; or return 1
    end
    if set -q argv[5]
        set -l i (math $argv[4] + 2)
        test "$s[$i]" = "$argv[5]"; or return 1
    end
    return 0
end`;

export function fish(tree: CompletionTree, version: string): string {
  const lines = [
    `# fish completion for assess ${version}, generated from its commands by \`assess completion fish\`.`,
    '# Install: assess completion fish > ~/.config/fish/completions/assess.fish   (regenerate after upgrading)',
    takesFunction(tree),
    subsFunction(tree),
    HELPERS,
    'complete -c assess -f',
  ];
  for (const i of tree.commands) {
    const cond = `__assess_at ${q(key(i.path))}`;
    const bare = `${cond} bare`; // verbs come before the command's own arguments
    if (i.subcommands.length) lines.push(`complete -c assess -n ${q(bare)} -a ${q(i.subcommands.join(' '))}`);
    if (!i.path.length) lines.push(`complete -c assess -n ${q(bare)} -a help`);
    for (const f of i.flags) {
      const line = flagLine(cond, f);
      if (line) lines.push(line);
    }
    if (i.jsonFields?.length)
      lines.push(`complete -c assess -n ${q(cond)} -l json -a ${q(list(i.jsonFields).join(' '))}`);
    i.args.forEach((a, n) => lines.push(...argLines(i, a, n)));
  }
  for (const f of tree.globals) {
    const line = flagLine(null, f);
    if (line) lines.push(line);
  }
  return `${lines.join('\n')}\n`;
}
