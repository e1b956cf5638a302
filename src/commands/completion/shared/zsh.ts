// The zsh completion script: the bash script run through zsh's bashcompinit, so both shells
// share one tested script instead of two that could disagree.
import { bash } from './bash.js';

export function zsh(version: string): string {
  const body = bash(version)
    .replace(/^# bash completion for assess[^\n]*\n# Load it with:[^\n]*\n/, '')
    .replace(/\ncomplete -F _assess assess\n$/, '\n');
  return `# zsh completion for assess ${version}: at each Tab it asks \`assess __complete\` what may follow.
# Load it from ~/.zshrc with: source <(assess completion zsh)
autoload -U +X compinit && { (( $+functions[compdef] )) || compinit; }
autoload -U +X bashcompinit && bashcompinit
${body}complete -F _assess assess
`;
}
