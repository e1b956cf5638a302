// The bash (and, through bashcompinit, zsh) completion script. The tree is written out as case
// tables; one small function walks the words before the cursor the way commander reads them (a
// flag's value is skipped, `--json [fields]` takes the next word unless it is a flag or, at the
// noun's place, a noun; `--x=v`; nothing is an option after `--`) to find the command path and
// how many positional arguments are already there, then offers: a flag's values after a flag;
// flags only when the word starts with `-`; otherwise the verbs (before any argument) and what
// the next positional argument completes to, or the command's own flags when nothing else is
// left to type. So `assess attempts <TAB>` lists verbs, never global flags. bash splits words at
// `=` and `:` (COMP_WORDBREAKS): the walk first joins those pieces again, so a URL or a time
// is one word, as commander sees it.
import type { CommandInfo, Completes, CompletionTree, FlagInfo } from './collect.js';

/** A word safe inside the script's double quotes and for `compgen -W`; null when it is not. */
function word(v: string): string | null {
  return /^[A-Za-z0-9_.,:@+/= -]+$/.test(v) ? v.replace(/ /g, '\\ ') : null;
}
const words = (list: readonly string[]) => list.map(word).filter((w): w is string => w !== null);
const padded = (list: readonly string[]) => ` ${list.join(' ')} `;
const key = (path: string[]) => path.join(' ');
const offered = (flags: FlagInfo[]) => flags.filter((f) => !f.hidden).flatMap((f) => f.names);
const withValue = (flags: FlagInfo[], takes: FlagInfo['takes']) =>
  flags.filter((f) => f.takes === takes).flatMap((f) => f.names);

/** The assignments that say what a value completes to, or '' for nothing. */
function kind(c: Completes): string {
  switch (c.kind) {
    case 'file':
      return '_a_kind=f';
    case 'dir':
      return '_a_kind=d';
    case 'words':
      return `_a_kind=w; _a_words="${words(c.words).join(' ')}"`;
    case 'list':
      return `_a_kind=l; _a_words="${words(c.words).join(' ')}"`;
    case 'keys':
      return `_a_kind=k; _a_words="${words(c.words).join(' ')}"`;
    case 'printed':
      return `_a_kind=w; _a_words="$(_assess_printed ${[c.field, ...c.command].map(word).join(' ')})"`;
    default:
      return '';
  }
}

function specCase(i: CommandInfo): string {
  const last = i.args[i.args.length - 1];
  return (
    `    "${key(i.path)}") _a_subs="${i.subcommands.join(' ')}"; _a_flags="${offered(i.flags).join(' ')}"; ` +
    `_a_own="${padded(i.flags.flatMap((f) => f.names))}"; _a_vflags="${padded(withValue(i.flags, 'required'))}"; ` +
    `_a_oflags="${padded(withValue(i.flags, 'optional'))}"; _a_nargs=${i.args.length}; _a_var=${last?.variadic ? 1 : 0};;`
  );
}

function flagCases(tree: CompletionTree): string[] {
  const out: string[] = [];
  for (const i of tree.commands) {
    for (const f of i.flags) {
      const k = kind(f.completes);
      if (k) out.push(`    ${f.names.map((n) => `"${key(i.path)}|${n}"`).join('|')}) ${k};;`);
    }
    if (i.jsonFields?.length) out.push(`    "${key(i.path)}|--json") ${kind({ kind: 'list', words: i.jsonFields })};;`);
  }
  for (const f of tree.globals) {
    const k = kind(f.completes);
    if (k) out.push(`    ${f.names.map((n) => `*"|${n}"`).join('|')}) ${k};;`);
  }
  return out;
}

function argCases(tree: CompletionTree): string[] {
  const out: string[] = [];
  for (const i of tree.commands)
    i.args.forEach((a, n) => {
      const c = a.completes;
      if (c.kind === 'after') {
        const inner = Object.entries(c.words)
          .filter(([w]) => word(w) !== null)
          .map(([w, list]) => `"${word(w)}") ${kind({ kind: 'words', words: list })};;`)
          .join(' ');
        out.push(`    "${key(i.path)}|${n}") case "\${_a_pos[${c.arg}]}" in ${inner} esac;;`);
      } else if (kind(c)) out.push(`    "${key(i.path)}|${n}") ${kind(c)};;`);
    });
  return out;
}

// Longer than a function should be: it is the bash script itself, one template read top to bottom.
export function bash(tree: CompletionTree, version: string): string {
  const globals = tree.globals;
  return `# bash completion for assess ${version}, generated from its commands by \`assess completion bash\`.
# Load it with: source <(assess completion bash)   (regenerate after upgrading assess)
_assess_globals="${offered(globals).join(' ')}"
_assess_gvflags="${padded(withValue(globals, 'required'))}"
_assess_goflags="${padded(withValue(globals, 'optional'))}"

# what a command path has: verbs, offered flags, flags with a value, positional arguments
_assess_spec() {
  case "$1" in
${tree.commands.map(specCase).join('\n')}
  esac
}

# what the value of flag $2 of command $1 completes to
_assess_flag_value() {
  _a_kind=""; _a_words=""
  case "$1|$2" in
${flagCases(tree).join('\n')}
  esac
}

# what positional argument $2 (from 0) of command $1 completes to
_assess_arg_value() {
  _a_kind=""; _a_words=""
  case "$1|$2" in
${argCases(tree).join('\n')}
  esac
}

# 2: flag $1 takes a value; 1: an optional one (the next word unless it is a flag); 0: none
_assess_takes() {
  if [[ "$_a_vflags" == *" $1 "* ]]; then _a_t=2
  elif [[ "$_a_oflags" == *" $1 "* ]]; then _a_t=1
  elif [[ "$_a_own" == *" $1 "* ]]; then _a_t=0
  elif [[ "$_assess_gvflags" == *" $1 "* ]]; then _a_t=2
  elif [[ "$_assess_goflags" == *" $1 "* ]]; then _a_t=1
  else _a_t=0; fi
}

# the $1 of each object that \`assess \${@:2} --json $1\` prints (names: letters, digits, . _ -)
_assess_printed() {
  command assess "\${@:2}" --json "$1" </dev/null 2>/dev/null | grep -o "\\"$1\\":\\"[A-Za-z0-9._-]*\\"" | cut -d'"' -f4
}

# COMPREPLY from _a_kind/_a_words, plus the words in $1 (verbs); _a_prefix is kept in front
_assess_reply() {
  case "$_a_kind" in
    w) COMPREPLY=($(compgen -P "$_a_prefix" -W "$1 $_a_words" -- "$cur"));;
    l) local head="$_a_prefix" typed="" left="" w # a list: the words not in it yet
       if [[ "$cur" == *,* ]]; then head="$head\${cur%,*},"; typed=",\${cur%,*},"; fi
       for w in $_a_words; do [[ "$typed" == *",$w,"* ]] || left="$left $w"; done
       COMPREPLY=($(compgen -P "$head" -W "$left" -- "\${cur##*,}"));;
    k) [[ "$cur" == *=* ]] && return # key=: the value is free text
       COMPREPLY=($(compgen -P "$_a_prefix" -S = -W "$_a_words" -- "$cur"))
       compopt -o nospace 2>/dev/null;;
    f|d) compopt -o filenames 2>/dev/null
       COMPREPLY=($(compgen -W "$1" -- "$cur"))
       local IFS=$'\\n' f
       if [[ -n "\${ZSH_VERSION-}" ]]; then # bashcompinit inserts names as given: quote them (bash quotes itself)
         for f in $(compgen -$_a_kind -- "$cur"); do COMPREPLY+=("$_a_prefix$(printf '%q' "$f")"); done
       else COMPREPLY+=($(compgen -P "$_a_prefix" -$_a_kind -- "$cur")); fi;;
    *) COMPREPLY=($(compgen -W "$1" -- "$cur"));;
  esac
}

# _a_line: COMP_WORDS with the pieces bash split at = and : joined again where nothing separates
# them on the line (--url=http://h:4010 is 7 pieces, one word to commander); _a_cword: the word
# at the cursor. zsh (bashcompinit) splits nothing, and its COMP_LINE keeps words apart.
_assess_words() {
  local line="\${COMP_LINE-}" w i gap glue=0
  _a_line=("\${COMP_WORDS[0]}"); _a_cword=0
  line="\${line#*"\${COMP_WORDS[0]}"}"
  for ((i=1; i<\${#COMP_WORDS[@]}; i++)); do
    w="\${COMP_WORDS[i]}"
    gap=0; [[ -n "\${COMP_LINE+set}" && "$line" == [[:blank:]]* ]] && gap=1
    line="\${line#*"$w"}"
    if ((!gap && \${#_a_line[@]} > 1)) && { ((glue)) || [[ -n "$w" && "$w" != *[!=:]* ]]; }; then
      _a_line[\${#_a_line[@]}-1]+="$w"
    else _a_line+=("$w"); fi
    glue=0; [[ -n "$w" && "$w" != *[!=:]* ]] && glue=1
    ((i == COMP_CWORD)) && _a_cword=$((\${#_a_line[@]} - 1))
  done
}

# what to offer for cur, once the walk has read the words before it
_assess_offer() {
  if [[ "$cur" == -*=* ]] && ((!ended)); then # --type=su
    flag="\${cur%%=*}"; _a_prefix="$flag="; cur="\${cur#*=}"; skip=1
  fi
  if ((skip == 1)) || { ((skip == 2)) && [[ "$cur" != -* ]]; }; then
    _assess_flag_value "$path" "$flag"
    # at the noun's place a noun is the noun, not the value (noValueBeforeCommand, src/cli/program.ts): --json tests
    if ((skip == 2)) && [[ -z "$path" ]]; then _assess_reply "$_a_subs"; else _assess_reply ""; fi
    return
  fi
  if ((ended)); then _a_subs="" # after --: operands only
  elif [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$_a_flags $_assess_globals" -- "$cur")); return; fi
  if ((help)); then COMPREPLY=($(compgen -W "$_a_subs" -- "$cur")); return; fi
  n=\${#_a_pos[@]}
  # a verb comes before the command's own arguments (\`report 900100 export\`: too many arguments)
  if [[ -n "$path" ]] && ((n)); then _a_subs=""; fi
  if ((n < _a_nargs || (_a_var && _a_nargs))); then
    ((n >= _a_nargs)) && n=$((_a_nargs - 1))
    _assess_arg_value "$path" "$n"
    _assess_reply "$_a_subs"
    return
  fi
  _a_kind=""
  ((ended)) && return # no operand is left to type
  if [[ -z "$path" ]]; then _assess_reply "$_a_subs help"; return; fi
  if [[ -n "$_a_subs" ]]; then _assess_reply "$_a_subs"; return; fi
  _assess_reply "$_a_flags" # nothing left to type: the command's own flags
}

_assess() {
  local cur path="" w i skip=0 flag="" help=0 ended=0 n trim=""
  local _a_subs _a_flags _a_own _a_vflags _a_oflags _a_nargs _a_var _a_kind _a_words _a_t _a_prefix="" _a_cword
  local -a _a_pos=() _a_line=()
  COMPREPLY=()
  _assess_words
  cur="\${_a_line[_a_cword]}"
  # bash replaces only the text after the last = or : of the word: the replies lose what precedes it
  [[ "$cur" != "\${COMP_WORDS[COMP_CWORD]}" ]] && trim="\${cur%"\${cur##*[=:]}"}"
  _assess_spec ""
  for ((i=1; i<_a_cword; i++)); do
    w="\${_a_line[i]}"
    if ((skip == 1)); then skip=0; continue; fi
    if ((skip == 2)); then skip=0; [[ "$w" == -* || ( -z "$path" && " $_a_subs " == *" $w "* ) ]] || continue; fi
    if ((ended)); then _a_pos+=("$w"); continue; fi
    case "$w" in
      --) ended=1; continue;;
      -*) flag="\${w%%=*}"; _assess_takes "$flag"; [[ "$w" == *=* ]] || skip=$((_a_t == 2 ? 1 : _a_t == 1 ? 2 : 0)); continue;;
    esac
    if [[ -z "$path" && "$w" == help && $help == 0 && \${#_a_pos[@]} == 0 ]]; then help=1; continue; fi
    if [[ " $_a_subs " == *" $w "* ]]; then path="$path\${path:+ }$w"; _a_pos=(); _assess_spec "$path"
    else _a_pos+=("$w"); fi
  done
  _assess_offer
  if [[ -n "$trim" ]]; then
    for ((i=0; i<\${#COMPREPLY[@]}; i++)); do COMPREPLY[i]="\${COMPREPLY[i]#"$trim"}"; done
  fi
}
complete -F _assess assess
`;
}
