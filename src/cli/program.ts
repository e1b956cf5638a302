// Builds the commander program (global options + the nouns) and runs it, mapping every
// failure to an exit code in exit-codes.ts. `runCli` takes the process as a parameter so
// tests can run commands in-process with in-memory streams.
//
// Only the noun on the command line is imported, and of its verbs the one on the line (with its
// zod schemas and helpers; all of them when the line asks for help); the others are placeholders that ask for the whole tree if commander
// ever reaches one. That keeps a command's start-up from paying for all ~60 commands.
import '../util/zod-settings.js'; // first: before any schema is built
import { HELP_LAYOUT, wrappedHelp } from './help-text.js';
import { Command, CommanderError, Help } from 'commander';
import { loadNoun, loadNouns, NOUN_NAMES } from '../commands/index.js';
import { buildCommand, loadHelpFields, definitionOf, type ContextFactory, type NounDef } from './command.js';
import { asksForHelp, helpWordAt, nounNotOptionValue, nounOnLine, wordAfterNoun } from './noun-on-line.js';
import { createContext, type ProcessLike, type Runtime } from './context-factory.js';
import { debugRequested } from './debug.js';
import { runExitHooks } from './exit-hooks.js';
import { realProcess } from './real-process.js';
import { describeError, EXIT, exitCodeFor } from './exit-codes.js';
import type { KeyOrigin } from '../config/key-origin.js';
import { helpHintFor, oneLine } from './commander-hint.js';
import { maskUrlCredentials, Secrets } from '../api/redact.js';
import { scrubbedProcess } from './scrubbed-process.js';
import { escapeMessage } from '../output/escape.js';
import { addGlobalOptions } from './globals.js';
import { helpWidth, SNAPSHOT_HELP_WIDTH } from './terminal-size.js';
import { VERSION } from '../version.js';
import { CancelledError } from '../errors.js';
import { markPlaceholder, WholeTreeNeeded } from './whole-tree.js';
import { namesNoCommand, withoutHelp } from './help-path.js';
import { MANUALS_AT } from '../util/manuals.js';

// Subcommand help: the verb's own flags (the globals are on `assess --help`), laid out for the
// terminal's width (HELP_LAYOUT).
// the standalone executable carries no docs/ of its own: MANUALS_AT says so
const DOCS = `Docs: assess help <command>; manuals: ${MANUALS_AT}`;
const SUBCOMMAND_HELP = {
  ...HELP_LAYOUT,
  sortSubcommands: false,
  // A command's own usage line where it declares one (`invite [options] <testId>`): commander's
  // list of commands shows every registered argument, also one kept only for an old spelling.
  subcommandTerm(this: Help, cmd: Command): string {
    const usage = definitionOf(cmd)?.usage;
    return usage ? `${cmd.name()} ${usage}` : Help.prototype.subcommandTerm.call(this, cmd);
  },
};

/**
 * The program for `argv`: only its noun's commands are built, the other nouns are placeholders
 * (commander still knows their names). Without `argv` (or when its noun is unclear), every noun
 * is built.
 */
export async function buildProgram(rt: Runtime, argv?: string[]): Promise<Command> {
  const program = new Command('assess')
    .description('Administer online candidate assessments: tests, links, invitations, reports, callbacks, settings.')
    .version(VERSION, '-V, --version', 'print the version')
    .showSuggestionAfterError(true)
    .showHelpAfterError(false)
    .configureHelp({ ...SUBCOMMAND_HELP, showGlobalOptions: true })
    .configureOutput({
      writeOut: (s) => rt.proc.stdout.write(s),
      writeErr: (s) => rt.proc.stderr.write(s),
      getOutHelpWidth: () => helpWidth(rt.proc.stdout, rt.proc.env) ?? SNAPSHOT_HELP_WIDTH,
      getErrHelpWidth: () => helpWidth(rt.proc.stderr, rt.proc.env) ?? SNAPSHOT_HELP_WIDTH,
    });
  addGlobalOptions(program);
  program.addHelpText(
    'after',
    wrappedHelp(`
Examples:
  $ assess --sandbox tests list
  $ assess auth login
  $ assess invite 1001 --email ann@example.com --name "Ann Lee"
  $ assess report 900001 --json

Times (T): 2026-03-01, 2026-03-01T09:00:00Z, -2d or "2d ago", +7d or "in 7d", now, today, yesterday (UTC)
Exit codes: 0 ok · 1 service refused/failed · 2 usage · 3 auth · 4 not found · 5 partial · 6 network · 130 interrupted
${DOCS}`),
  );
  const make = (cmd: Command) => createContext(cmd, rt);
  const only = argv && nounOnLine(argv, program, NOUN_NAMES);
  // help lists the noun's verbs with their usage and description: a line asking for it builds them all
  const onLine = only && !asksForHelp(argv) ? { word: wordAfterNoun(argv, program, NOUN_NAMES) } : undefined;
  const nouns = only ? [await loadNoun(only, onLine)] : await loadNouns();
  for (const name of NOUN_NAMES) {
    const noun = nouns.find((n) => n.name === name);
    program.addCommand(noun ? nounCommand(noun, make) : placeholder(name));
  }
  // Every subcommand inherits the output/exit behaviour of the program; commander's own errors
  // end with the help of the command that raised them.
  const output = program.configureOutput();
  const inherit = (c: Command) => {
    c.exitOverride()
      .configureOutput({ ...output, outputError: (text, write) => write(oneLine(text) + helpHintFor(c, text)) })
      .showSuggestionAfterError(true);
    if (c !== program) c.configureHelp(SUBCOMMAND_HELP);
    c.commands.forEach(inherit);
  };
  inherit(program);
  // the fields a verb's help lists may come from an answer's schemas: built when help is shown
  if (!argv || asksForHelp(argv)) await loadHelpFields(program);
  return program;
}

function nounCommand(noun: NounDef, make: ContextFactory): Command {
  const parent = noun.self ? buildCommand(noun.self, make, new Command(noun.name)) : new Command(noun.name);
  // A noun that is also a command (`report <id> --type …`) parses its flags before a verb
  // sees them: hand the ones the verb defines too over to the verb (`report export --type …`).
  if (noun.self && noun.verbs.length) parent.hook('preSubcommand', handOverSharedFlags);
  parent.description(noun.description);
  // A group's help shows the first example of each of its verbs.
  if (!noun.self)
    parent.addHelpText(
      'after',
      wrappedHelp(`\nExamples:\n${noun.verbs.map((v) => `  $ ${v.examples[0]}`).join('\n')}\n`),
    );
  for (const verb of noun.verbs) parent.addCommand(buildCommand(verb, make));
  for (const name of noun.omitted) parent.addCommand(placeholder(name));
  return parent;
}

/** A noun or verb not loaded: reaching it builds the whole tree and parses the line again. */
function placeholder(name: string): Command {
  const noun = new Command(name)
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument('[words...]')
    .action(() => {
      throw new WholeTreeNeeded();
    });
  return markPlaceholder(noun);
}

function handOverSharedFlags(self: Command, verb: Command): void {
  for (const opt of self.options) {
    const key = opt.attributeName();
    if (self.getOptionValueSource(key) !== 'cli' || !verb.options.some((o) => o.attributeName() === key)) continue;
    verb.setOptionValueWithSource(key, self.getOptionValue(key), 'cli');
    self.setOptionValueWithSource(key, undefined, 'default');
  }
}

/** Every command's --help text, keyed by its path ('' for the program): snapshotted at build. */
export function helpPages(program: Command): Record<string, string> {
  const pages: Record<string, string> = {};
  const walk = (c: Command, path: string[]) => {
    pages[path.join(' ')] = c.helpInformation() + helpAfter(c);
    for (const sub of c.commands) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return pages;
}

// helpInformation() leaves out text added with addHelpText; collect it the way outputHelp does.
function helpAfter(c: Command): string {
  let out = '';
  const capture = { writeOut: (s: string) => (out += s), writeErr: () => undefined };
  const saved = c.configureOutput();
  c.configureOutput(capture);
  c.outputHelp();
  c.configureOutput(saved);
  return out.slice(c.helpInformation().length);
}

/**
 * The build's help snapshot (scripts/build.mjs, package.mjs, gen-docs.mjs) is asked for with
 * ASSESS_DUMP_HELP=1 and this one argument together: a variable left in someone's environment
 * alone never turns their commands into a help dump.
 */
export const HELP_DUMP_ARG = '--dump-help-pages';

/** The signals that stop a run cleanly (ctx.signal). */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** `startup`: what src/main.ts learned before loading the program (told on stderr under --debug). */
export async function runCli(
  argv: string[],
  proc: ProcessLike = realProcess(),
  startup: { compileCache?: string } = {},
): Promise<number> {
  if (argv[0] === 'help' && argv.length > 1) argv = [...argv.slice(1), '--help']; // `help noun verb` = `noun verb --help`
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
    loadNoun: (name) => loadNoun(name),
    secrets,
  };
  if (rt.debug && startup.compileCache !== undefined)
    proc.stderr.write(`[debug] compile cache: ${startup.compileCache}\n`);
  if (proc.env.ASSESS_DUMP_HELP === '1' && argv.length === 1 && argv[0] === HELP_DUMP_ARG) {
    proc.stdout.write(JSON.stringify(helpPages(await buildProgram(rt))));
    return 0;
  }
  let program = await buildProgram(rt, argv);
  argv = nounNotOptionValue(argv, program, NOUN_NAMES);
  const helpAt = helpWordAt(argv, program, NOUN_NAMES);
  if (helpAt > 0) {
    // `--profile x help tests` = `--profile x tests --help`, as when `help` comes first
    argv = [...argv.slice(0, helpAt), ...argv.slice(helpAt + 1), '--help'];
    program = await buildProgram(rt, argv);
  }
  // help for a command that does not exist is commander's "unknown command", as without --help
  if (asksForHelp(argv) && namesNoCommand(argv, program)) argv = withoutHelp(argv);
  // Kept for the whole run (not `once`): a library that re-raises the signal after its own
  // cleanup (when-exit, under conf) must not kill us before journals and servers are closed.
  // The first signal asks the command to wind down (ctx.signal); a second one from the user, a
  // moment later (an echo arrives at once), stops at once — finished journal rows are committed.
  // SIGHUP (a closed terminal, a dropped SSH session) and SIGTERM wind down as Ctrl-C does; the
  // exit code then says which one came (129, 143).
  // Ctrl-C is answered at once, saying what a second one does (clig.dev), before the wind-down.
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
  let code: number = EXIT.ok;
  try {
    try {
      await program.parseAsync(argv, { from: 'user' });
    } catch (err) {
      if (!(err instanceof WholeTreeNeeded)) throw err;
      // a placeholder was reached, or a command reads the tree (nothing ran yet): parse again with
      // every noun built
      program = await buildProgram(rt);
      await program.parseAsync(argv, { from: 'user' });
    }
  } catch (err) {
    code = handleError(err, proc, rt.debug, controller.signal.aborted, rt.keyOrigin);
  } finally {
    for (const s of STOP_SIGNALS) process.off(s, onSignal);
    await runExitHooks(rt.exitHooks); // ctx.onExit's, the keep-alive pool's last
  }
  // Stopped by SIGTERM (a supervisor, `kill`) or SIGHUP: 128 + its number, as a shell reports a
  // process it ended, after the same clean wind-down as Ctrl-C.
  if (stoppedBy !== undefined && (code === EXIT.ok || code === EXIT.interrupted)) return stoppedBy;
  return code;
}

function handleError(err: unknown, proc: ProcessLike, debug: boolean, aborted: boolean, keyOrigin?: KeyOrigin): number {
  if (err instanceof CommanderError) {
    // commander already printed its message (with "Did you mean …?") to stderr.
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.ok;
    // `assess tests` without a verb: commander shows the help on stderr as an error (exitCode 1).
    if (err.code === 'commander.help') return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (err.code === 'commander.executeSubCommandAsync') return EXIT.ok;
    return EXIT.usage;
  }
  // Ctrl-C (or Esc) at a prompt: the user's choice, not an error — quiet, 130.
  const promptClosed = err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError');
  if (aborted || promptClosed) {
    // a bulk run says what is left and how to resume; anything else just stops
    const said =
      err instanceof CancelledError && err.interrupted && err.message !== 'interrupted'
        ? escapeMessage(err.message)
        : 'interrupted';
    proc.stderr.write(promptClosed ? '\n' : `${said}\n`);
    return EXIT.interrupted;
  }
  const { message, hint } = describeError(err, proc.env, keyOrigin);
  // Messages quote service text and URLs: no control characters, no password of a base URL.
  const safe = (s: string) => escapeMessage(maskUrlCredentials(s));
  proc.stderr.write(`error: ${safe(message)}\n`);
  if (hint) proc.stderr.write(`  ${safe(hint)}\n`);
  if (debug && err instanceof Error && err.stack) proc.stderr.write(`${safe(err.stack)}\n`);
  return exitCodeFor(err);
}
