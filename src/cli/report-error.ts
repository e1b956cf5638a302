// How an error that ends a run is told, and the exit code it ends with.
import { CommanderError } from 'commander';
import type { KeyOrigin } from '../config/key-origin.js';
import { CancelledError } from '../errors.js';
import { maskUrlCredentials } from '../api/redact.js';
import { escapeMessage } from '../output/escape.js';
import type { ProcessLike } from './context-factory.js';
import { describeError, EXIT, exitCodeFor } from './exit-codes.js';

export function reportError(
  err: unknown,
  proc: ProcessLike,
  debug: boolean,
  aborted: boolean,
  keyOrigin?: KeyOrigin,
): number {
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
