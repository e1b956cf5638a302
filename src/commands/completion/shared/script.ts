// Shell completion scripts generated from the commander program: every command, its flags and
// the values of enumerated flags, so completion can never drift from what the program accepts.
import type { Command, Option } from 'commander';

export interface CommandInfo {
  path: string[];
  flags: string[];
  /** Flag → the values it takes, where they are a fixed set. */
  values: Record<string, string[]>;
  subcommands: string[];
}

/** Values of flags whose set is fixed by the spec but validated by zod, not commander. */
const KNOWN_VALUES: Record<string, string[]> = {
  '--state': ['completed', 'cancelled', 'expired'],
  '--type': ['email', 'open', 'summary', 'skills', 'both'],
  '--status': ['active', 'inactive'],
  '--proctoring': ['disabled', 'image', 'video'],
  '--format': ['csv', 'json', 'ndjson'],
  '--image-proctoring': ['0', '1'],
};

export function collect(program: Command): CommandInfo[] {
  const out: CommandInfo[] = [];
  const walk = (c: Command, path: string[], inherited: Option[]) => {
    const options = [...inherited, ...c.options.filter((o) => !(o as Option & { hidden?: boolean }).hidden)];
    const values: Record<string, string[]> = {};
    for (const o of options) {
      if (!o.long) continue;
      const choices = (o as Option & { argChoices?: string[] }).argChoices;
      if (choices?.length) values[o.long] = choices;
      else if (KNOWN_VALUES[o.long] && o.required) values[o.long] = KNOWN_VALUES[o.long]!;
    }
    out.push({
      path,
      flags: options.flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f))),
      values,
      subcommands: c.commands.map((s) => s.name()),
    });
    for (const sub of c.commands) walk(sub, [...path, sub.name()], path.length === 0 ? options : inherited);
  };
  walk(program, [], []);
  return out;
}

const key = (path: string[]) => path.join(' ');

export function bash(infos: CommandInfo[]): string {
  const cases = infos
    .map((i) => {
      const words = [...i.subcommands, ...i.flags].join(' ');
      const vals = Object.entries(i.values)
        .map(([f, v]) => `      ${f}) COMPREPLY=($(compgen -W "${v.join(' ')}" -- "$cur")); return;;`)
        .join('\n');
      return `    "${key(i.path)}")\n      case "$prev" in\n${vals}\n      esac\n      COMPREPLY=($(compgen -W "${words}" -- "$cur"));;`;
    })
    .join('\n');
  return `# bash completion for assess — source it: source <(assess completion bash)
_assess() {
  local cur prev path="" w
  cur="\${COMP_WORDS[COMP_CWORD]}"; prev="\${COMP_WORDS[COMP_CWORD-1]}"
  for ((i=1; i<COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$w" in -*) ;; *) if [[ -n "$(_assess_known "$path\${path:+ }$w")" ]]; then path="$path\${path:+ }$w"; fi;; esac
  done
  case "$path" in
${cases}
  esac
}
_assess_known() {
  case "$1" in
${infos.map((i) => `    "${key(i.path)}") echo y;;`).join('\n')}
  esac
}
complete -F _assess assess
`;
}

export function zsh(infos: CommandInfo[]): string {
  return `#compdef assess
# zsh completion for assess — put it on $fpath as _assess, or: source <(assess completion zsh)
${bash(infos).replace('complete -F _assess assess', '')}
autoload -U +X bashcompinit && bashcompinit
complete -F _assess assess
`;
}

export function fish(infos: CommandInfo[]): string {
  const lines = ['# fish completion for assess — assess completion fish > ~/.config/fish/completions/assess.fish', 'complete -c assess -f'];
  for (const i of infos) {
    const cond = i.path.length ? `__fish_seen_subcommand_from ${i.path[i.path.length - 1]}` : '__fish_use_subcommand';
    for (const s of i.subcommands) lines.push(`complete -c assess -n '${cond}' -a ${s}`);
    for (const f of i.flags.filter((f) => f.startsWith('--'))) {
      const vals = i.values[f];
      lines.push(`complete -c assess -n '${cond}' -l ${f.slice(2)}${vals ? ` -xa '${vals.join(' ')}'` : ''}`);
    }
  }
  return `${[...new Set(lines)].join('\n')}\n`;
}
