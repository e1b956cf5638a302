// The fish completion script: at each Tab it hands the words before the cursor to
// `assess __complete` (src/cli/completion/complete.ts), which reads them as commander does, and prints its
// candidates, with file or directory names where it says so; flags only once a `-` is typed.
export function fish(version: string): string {
  return `# fish completion for assess ${version}: at each Tab it asks \`assess __complete\` what may follow.
# Install it with: assess completion fish > ~/.config/fish/completions/assess.fish

function __assess_complete
    set -l words (commandline -opc)
    set -l cur (commandline -ct)
    set -l program $words[1]
    set -e words[1]
    set -l out (command $program __complete -- $words $cur </dev/null 2>/dev/null)
    or return
    set -q out[1]; or return
    string match -q -- ':*' $out[-1]; or return
    set -l last (string split -m 1 ' ' -- (string sub -s 2 -- $out[-1]))
    set -e out[-1]
    # fish's way: flags once a - is typed (bash offers a command's flags when nothing else is left)
    string match -q -- '-*' $cur; or set out (string match -v -- '-*' $out)
    printf '%s\\n' $out
    set -l prefix $last[2]
    set -l name (string sub -s (math (string length -- "$prefix") + 1) -- $cur)
    switch $last[1]
        case files
            __fish_complete_path $name | string replace -r -- '^' "$prefix"
        case dirs
            __fish_complete_directories $name | string replace -r -- '^' "$prefix"
    end
end

complete -c assess -f -a '(__assess_complete)'
`;
}
