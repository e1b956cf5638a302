// The zsh completion script: the bash script run through zsh's bashcompinit, so both shells
// share one tested walk over the command line instead of two that could disagree.
import { bash } from './bash.js';
import type { CompletionTree } from './collect.js';

export function zsh(tree: CompletionTree, version: string): string {
  const body = bash(tree, version)
    .replace(/^# bash completion for assess[^\n]*\n# Load it with:[^\n]*\n/, '')
    .replace(/\ncomplete -F _assess assess\n$/, '\n');
  return `# zsh completion for assess ${version}, generated from its commands by \`assess completion zsh\`.
# Load it from ~/.zshrc with: source <(assess completion zsh)   (regenerate after upgrading assess)
autoload -U +X compinit && { (( $+functions[compdef] )) || compinit; }
autoload -U +X bashcompinit && bashcompinit
${body}complete -F _assess assess
`;
}
