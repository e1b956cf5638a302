// The program's nouns as commander commands, each built when a line first reaches it (commander's
// `preSubcommand` hook), or all of them for the program's own page, completion and `assess mcp`.
import type { Command } from 'commander';
import { NOUNS } from '../commands/index.js';
import { buildCommand, loadHelpFields, selfOf, type ContextFactory, type NounDecl } from './command.js';
import { leadWith } from './help-text.js';

/** The nouns' commands, built once each, when first needed. */
export class Tree {
  private readonly filled = new Map<Command, Promise<void>>();
  readonly program: Command;
  private readonly make: ContextFactory;
  /** What every command built takes from the program (its output, errors and help layout). */
  private readonly inherit: (c: Command) => void;
  /** Whether help may be shown (a line asking for it, or the whole tree): its fields are loaded. */
  help: boolean;
  constructor(program: Command, make: ContextFactory, help: boolean, inherit: (c: Command) => void) {
    this.program = program;
    this.make = make;
    this.help = help;
    this.inherit = inherit;
  }

  /** Builds the commands of `cmd` when it is a noun of the program (anything else is left as it is). */
  fill(cmd: Command): Promise<void> {
    const noun = this.nounOf(cmd);
    if (!noun) return Promise.resolve();
    let done = this.filled.get(cmd);
    if (!done) this.filled.set(cmd, (done = this.build(cmd, noun)));
    return done;
  }

  get isWhole(): boolean {
    return this.program.commands.every((c) => this.filled.has(c) || !this.nounOf(c));
  }

  /**
   * The program with every noun built; `withFields`: their help's field lists too (the program's own page lists none).
   */
  async whole(withFields = true): Promise<Command> {
    this.help = withFields;
    await Promise.all(this.program.commands.map((c) => this.fill(c)));
    return this.program;
  }

  private nounOf(cmd: Command): NounDecl | undefined {
    return cmd.parent === this.program ? NOUNS.find((n) => n.name === cmd.name()) : undefined;
  }

  private async build(cmd: Command, noun: NounDecl): Promise<void> {
    const [self, verbs] = await Promise.all([
      typeof noun.self === 'function' ? selfOf(noun) : undefined,
      Promise.all(Object.values(noun.verbs).map(async (load) => (await load()).default)),
    ]);
    if (self) buildCommand(self, this.make, cmd).description(noun.description);
    for (const verb of verbs) {
      const built = buildCommand(verb, this.make);
      cmd.addCommand(built);
      this.inherit(built);
    }
    // a group's page leads with the first example of each of its verbs
    if (!noun.self)
      leadWith(
        cmd,
        verbs.map((v) => v.examples[0]!),
      );
    // the fields a verb's help lists may come from an answer's schemas: built only for help
    if (this.help) await loadHelpFields(cmd);
  }
}
