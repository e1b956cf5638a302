// The bash (and, through bashcompinit, zsh) completion script. At each Tab it hands the words
// before the cursor to `assess __complete` (src/cli/completion/complete.ts), which reads them as commander does
// and answers with candidates and whether file or directory names go with them. bash splits
// words at `=` and `:` (COMP_WORDBREAKS): the script first joins those pieces again, so a URL or
// a time is one word, as commander sees it, and gives back only what follows the last piece.

export function bash(version: string): string {
  return `# bash completion for assess ${version}: at each Tab it asks \`assess __complete\` what may follow.
# Load it with: source <(assess completion bash)

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

_assess() {
  local cur trim="" last then prefix w i kind IFS=$'\\n' _a_cword
  local -a _a_line=() out=()
  COMPREPLY=()
  _assess_words
  cur="\${_a_line[_a_cword]}"
  # bash replaces only the text after the last = or : of the word: the replies lose what precedes it
  [[ "$cur" != "\${COMP_WORDS[COMP_CWORD]}" ]] && trim="\${cur%"\${cur##*[=:]}"}"
  out=($(command "\${COMP_WORDS[0]}" __complete -- "\${_a_line[@]:1:_a_cword}" </dev/null 2>/dev/null))
  ((\${#out[@]})) || return 0
  last="\${out[\${#out[@]}-1]}"; unset "out[\${#out[@]}-1]"
  [[ "$last" == :* ]] || return 0 # not an answer
  IFS=' ' read -r then prefix <<< "\${last#:}"
  for w in "\${out[@]}"; do COMPREPLY+=("\${w// /\\\\ }"); done
  case "$then" in
    nospace) compopt -o nospace 2>/dev/null;;
    files|dirs) compopt -o filenames 2>/dev/null
       kind=f; [[ "$then" == dirs ]] && kind=d
       if [[ -n "\${ZSH_VERSION-}" ]]; then # bashcompinit inserts names as given: quote them (bash quotes itself)
         for w in $(compgen -$kind -- "\${cur#"$prefix"}"); do COMPREPLY+=("$prefix$(printf '%q' "$w")"); done
       else COMPREPLY+=($(compgen -P "$prefix" -$kind -- "\${cur#"$prefix"}")); fi;;
  esac
  if [[ -n "$trim" ]]; then
    for ((i=0; i<\${#COMPREPLY[@]}; i++)); do COMPREPLY[i]="\${COMPREPLY[i]#"$trim"}"; done
  fi
}
complete -F _assess assess
`;
}
