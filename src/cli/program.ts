// Builds the commander program (global options + the nouns) and runs it, mapping every
// failure to an exit code in exit-codes.ts. `runCli` takes the process as a parameter so
// tests can run commands in-process with in-memory streams.
//
// Every noun is known to the program (its declaration is small: src/commands/<noun>/index.ts);
// its verbs are imported when commander dispatches to the noun (the `preSubcommand` hook), so a
// run builds the whole subtree of the noun on its line and no other.
import '../util/zod-settings.js'; // first: before any schema is built
import { Command, Help, Option, type HelpContext } from 'commander';
import { HELP_LAYOUT, leadWith, wrappedHelp } from './help-text.js';
import { loadNoun, NOUNS } from '../commands/index.js';
import { buildCommand, definitionOf, type ContextFactory, type NounDecl } from './command.js';
import { createContext, type ProcessLike, type Runtime } from './context-factory.js';
import { debugRequested } from './debug.js';
import { runExitHooks } from './exit-hooks.js';
import { realProcess } from './real-process.js';
import { Tree } from './tree.js';
import { completeCommand } from './complete-command.js';
import { EXIT } from './exit-codes.js';
import { helpHintFor, oneLine } from './commander-hint.js';
import { Secrets } from '../api/redact.js';
import { scrubbedProcess } from './scrubbed-process.js';
import { addGlobalOptions } from './globals.js';
import { helpWidth } from './terminal-size.js';
import { VERSION } from '../version.js';
import { summary } from './summary.js';
import { reportError } from './report-error.js';
import { MANUALS_AT } from '../util/manuals.js';
export { helpPages } from './help-pages.js';

// the standalone executable carries no docs/ of its own: MANUALS_AT says so
const DOCS = `Docs: assess help <command>; manuals: ${MANUALS_AT}`;
const DESCRIPTION = 'Administer online candidate assessments: tests, links, invitations, reports, callbacks, settings.';
const EXAMPLES = [
  'assess --sandbox tests list',
  'assess auth login',
  'assess invite 1001 --email ann@example.com --name "Ann Lee"',
  'assess report 900001 --json',
];

// Every page: the verb's own flags (the globals are on `assess --help`), laid out for the width.
const HELP = {
  ...HELP_LAYOUT,
  sortSubcommands: false,
  inError: false,
  prepareContext(this: Help & { inError: boolean }, context: { error?: boolean; helpWidth?: number }): void {
    Help.prototype.prepareContext.call(this, context);
    this.inError = Boolean(context.error);
  },
  // the program shown for a line that runs nothing (`assess -q`): the short summary, as `assess` alone
  formatHelp(this: Help & { inError: boolean }, cmd: Command, helper: Help): string {
    if (!cmd.parent && this.inError) return summary(this.helpWidth ?? 80);
    return HELP_LAYOUT.formatHelp.call(this, cmd, helper);
  },
  // A command's own usage line where it declares one (`invite [options] <testId>`): commander's
  // list of commands shows every registered argument, also one kept only for an old spelling.
  subcommandTerm(this: Help, cmd: Command): string {
    const usage = definitionOf(cmd)?.behaviour.usage;
    return usage ? `${cmd.name()} ${usage}` : Help.prototype.subcommandTerm.call(this, cmd);
  },
};

/**
 * A group's `-h, --help` (the program's, a noun's without a command of its own): commander asks
 * it only when the line's first word there names none of the group's commands, and such a word
 * is an unknown command with or without help (`assess raport --help`, `tests lst -h`).
 */
class GroupHelp extends Option {
  private readonly group: Command;
  constructor(group: Command) {
    super('-h, --help', 'display help for command');
    this.group = group;
  }
  // commander's Option#is (not in its typings), asked with each word after the group
  is(arg: string): boolean {
    const word = this.group.args[0];
    return (arg === this.short || arg === this.long) && (word === undefined || word.startsWith('-'));
  }
}

const isGroup = (cmd: Command) => cmd.commands.length > 0 && !definitionOf(cmd);

/** Thrown when commander has decided to show the program's page before every noun is built. */
class ProgramHelpWanted extends Error {}

/**
 * The program's page lists every noun with what its own command takes (`invite [options]
 * <testId>`), which needs their declarations, imported (asynchronously) only for that page:
 * when commander decides that the line asks for it, runCli builds them, then shows it.
 */
class Program extends Command {
  tree?: Tree;
  override outputHelp(context?: HelpContext | ((text: string) => string)): void {
    const error = typeof context === 'object' && context.error;
    if (!error && this.tree && !this.tree.isWhole) throw new ProgramHelpWanted();
    super.outputHelp(context as HelpContext);
  }
}

/**
 * The program. `lazy`: each noun's verbs are built when commander reaches the noun (a run);
 * otherwise every noun is built now (the whole tree: docs, tests).
 */
export async function buildProgram(rt: Runtime, { lazy = false, argv = [] as string[] } = {}): Promise<Command> {
  const program = new Program('assess');
  program
    .description(DESCRIPTION)
    .version(VERSION, '-V, --version', 'print the version')
    .showSuggestionAfterError(true)
    .showHelpAfterError(false)
    .configureHelp({ ...HELP, showGlobalOptions: true })
    .configureOutput({
      writeOut: (s) => rt.proc.stdout.write(s),
      writeErr: (s) => rt.proc.stderr.write(s),
      getOutHelpWidth: () => helpWidth(rt.proc.stdout, rt.proc.env),
      getErrHelpWidth: () => helpWidth(rt.proc.stderr, rt.proc.env),
    });
  addGlobalOptions(program);
  leadWith(program, EXAMPLES);
  program.addHelpText(
    'after',
    wrappedHelp(`
Times (T): 2026-03-01, 2026-03-01T09:00:00Z, -2d or "2d ago", +7d or "in 7d", now, today, yesterday (UTC)
Exit codes: 0 ok · 1 service refused/failed · 2 usage · 3 auth · 4 not found · 5 partial · 6 network · 130 interrupted
${DOCS}`),
  );
  const make = (cmd: Command) => createContext(cmd, rt);
  const tree = (program.tree = new Tree(program, make, !lazy || asksForHelp(argv), inherit));
  for (const noun of NOUNS) program.addCommand(nounCommand(noun, make));
  program.helpCommand(false).addCommand(helpCommand(tree));
  program.addCommand(completeCommand(tree, rt), { hidden: true });
  program.addHelpOption(new GroupHelp(program));
  program.hook('preSubcommand', (_, sub) => tree.fill(sub));
  inherit(program);
  if (!lazy) await tree.whole();
  return program;
}

/** `--help`, `-h` or `help` on the line (a word of a value may be one too: then fields load for nothing). */
const asksForHelp = (argv: readonly string[]) => argv.some((a) => a === '--help' || a === '-h' || a === 'help');

/** A noun: its own command (`invite <testId>`: built now when declared, else by the Tree), or a group of verbs. */
function nounCommand(noun: NounDecl, make: ContextFactory): Command {
  const cmd = noun.self && typeof noun.self !== 'function' ? buildCommand(noun.self, make) : new Command(noun.name);
  cmd.name(noun.name).description(noun.description);
  if (!noun.self) cmd.addHelpOption(new GroupHelp(cmd));
  // A noun that is also a command (`report <id> --type …`) parses its flags before a verb
  // sees them: hand the ones the verb defines too over to the verb (`report export --type …`).
  if (noun.self && Object.keys(noun.verbs).length) cmd.hook('preSubcommand', handOverSharedFlags);
  return cmd;
}

/**
 * `help [command...]`, which commander's own help command does for one word only: the verbs
 * of the noun named are built first, and a word naming no command of a group is the error it is
 * without `help` (`assess help raport`: unknown command, with commander's suggestion).
 */
function helpCommand(tree: Tree): Command {
  return new Command('help')
    .description('display help for command')
    .argument('[command...]')
    .action(async (words: string[]) => {
      let cmd = tree.program;
      for (const [i, word] of words.entries()) {
        const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
        if (!sub) {
          // commander's own verdict on the words, read where only a command can stand
          if (isGroup(cmd)) await cmd.parseAsync(words.slice(i), { from: 'user' });
          break; // a word where a command takes arguments: that command's help
        }
        tree.help = true;
        await tree.fill(sub);
        cmd = sub;
      }
      if (cmd === tree.program) await tree.whole(false);
      cmd.help();
    });
}

/**
 * The output and exit behaviour of the program, for a command (and those under it); commander's errors end with a hint.
 */
function inherit(c: Command): Command {
  const output = c.parent ? rootOf(c).configureOutput() : c.configureOutput();
  c.exitOverride()
    .configureOutput({ ...output, outputError: (text, write) => write(oneLine(text) + helpHintFor(c, text)) })
    .showSuggestionAfterError(true);
  if (c.parent) c.configureHelp(HELP);
  c.commands.forEach(inherit);
  return c;
}

function rootOf(c: Command): Command {
  while (c.parent) c = c.parent;
  return c;
}

function handOverSharedFlags(self: Command, verb: Command): void {
  for (const opt of self.options) {
    const key = opt.attributeName();
    if (self.getOptionValueSource(key) !== 'cli' || !verb.options.some((o) => o.attributeName() === key)) continue;
    verb.setOptionValueWithSource(key, self.getOptionValue(key), 'cli');
    self.setOptionValueWithSource(key, undefined, 'default');
  }
}

/**
 * `assess --json tests list`: commander would take `tests` as --json's fields and then fail on
 * `list`. Before the first word of the line, a program option whose value is optional, followed
 * by a command's name, is given no value (`--json=`: every field). The one rewrite of a line.
 */
export function noValueBeforeCommand(argv: string[], program: Command): string[] {
  for (let i = 0; i < argv.length - 1; i++) {
    const name = argv[i]!.replace(/^(--[^=]+)=.*$/s, '$1');
    const opt = program.options.find((o) => o.long === name || o.short === name);
    if (!opt) break; // a word, `--`, or an option only commander can read (-yq, unknown): it reads on
    if (argv[i]!.includes('=')) continue;
    if (opt.required) i++;
    else if (opt.optional && program.commands.some((c) => c.name() === argv[i + 1]))
      return [...argv.slice(0, i), `${opt.long}=`, ...argv.slice(i + 1)];
  }
  return argv;
}

/** The signals that stop a run cleanly (ctx.signal). */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** `startup`: what src/main.ts learned before loading the program (told on stderr under --debug). */
export async function runCli(
  argv: string[],
  proc: ProcessLike = realProcess(),
  startup: { compileCache?: string } = {},
): Promise<number> {
  const controller = new AbortController();
  // every secret the run comes to hold is masked in all it writes (src/api/redact.ts)
  const secrets = new Secrets();
  proc = scrubbedProcess(proc, secrets);
  const rt: Runtime = {
    proc,
    signal: controller.signal,
    debug: debugRequested(argv, proc.env),
    exitHooks: [],
    hangupHooks: new Set(),
    loadNoun,
    secrets,
  };
  if (rt.debug && startup.compileCache !== undefined)
    proc.stderr.write(`[debug] compile cache: ${startup.compileCache}\n`);
  // `assess` alone: the short summary, on stdout (what was asked for)
  if (argv.length === 0) {
    proc.stdout.write(summary(helpWidth(proc.stdout, proc.env)));
    return EXIT.ok;
  }
  const program = await buildProgram(rt, { lazy: true, argv });
  const signals = windDownOnSignals(rt, controller, proc);
  let code: number = EXIT.ok;
  try {
    await program.parseAsync(noValueBeforeCommand(argv, program), { from: 'user' });
  } catch (err) {
    if (err instanceof ProgramHelpWanted && program instanceof Program && program.tree)
      (await program.tree.whole(false)).outputHelp();
    else code = reportError(err, proc, rt.debug, controller.signal.aborted, rt.keyOrigin);
  } finally {
    signals.remove();
    await runExitHooks(rt.exitHooks); // ctx.onExit's, the keep-alive pool's last
  }
  // Stopped by SIGTERM (a supervisor, `kill`) or SIGHUP: 128 + its number, as a shell reports a
  // process it ended, after the same clean wind-down as Ctrl-C.
  const stoppedBy = signals.stoppedBy();
  if (stoppedBy !== undefined && (code === EXIT.ok || code === EXIT.interrupted)) return stoppedBy;
  return code;
}

/**
 * Kept for the whole run (not `once`): a library that re-raises the signal after its own
 * cleanup (when-exit, under conf) must not kill us before journals and servers are closed.
 * The first signal asks the command to wind down (ctx.signal); a second one from the user, a
 * moment later (an echo arrives at once), stops at once — finished journal rows are committed.
 * SIGHUP (a closed terminal, a dropped SSH session) and SIGTERM wind down as Ctrl-C does; the
 * exit code then says which one came (129, 143).
 * Ctrl-C is answered at once, saying what a second one does (clig.dev), before the wind-down.
 */
function windDownOnSignals(rt: Runtime, controller: AbortController, proc: ProcessLike) {
  let firstSignalAt = 0;
  let stoppedBy: number | undefined;
  const onSignal = (signal?: NodeJS.Signals) => {
    // a command that reloads on SIGHUP (a TLS listener) asked for it: it keeps running
    if (signal === 'SIGHUP' && rt.hangupHooks?.size) return rt.hangupHooks.forEach((fn) => fn());
    if (signal === 'SIGTERM' || signal === 'SIGHUP') stoppedBy ??= signal === 'SIGTERM' ? EXIT.terminated : EXIT.hangup;
    if (!controller.signal.aborted) {
      firstSignalAt = Date.now();
      if (signal === 'SIGINT') proc.stderr.write('interrupted: finishing what is under way; Ctrl-C again stops now\n');
      controller.abort(new Error('interrupted'));
    } else if (Date.now() - firstSignalAt > 500) {
      proc.stderr.write('interrupted again: stopping now\n');
      process.exit(stoppedBy ?? EXIT.interrupted);
    }
  };
  for (const s of STOP_SIGNALS) process.on(s, onSignal);
  return {
    /** The exit code of the SIGTERM or SIGHUP that stopped the run, if one did. */
    stoppedBy: () => stoppedBy,
    remove: () => {
      for (const s of STOP_SIGNALS) process.off(s, onSignal);
    },
  };
}
