// `assess … | head` closes the pipe early: that is the reader's choice, not an error. Any other
// failure of stdout (a full disk behind `> file`) is a place we cannot write: exit 2 naming it,
// not a stack trace.
//
// Attached when stdout is first used rather than at start: Node builds process.stdout on first
// use, and on a pipe that loads node:net (~3 ms of a command whose only output is on stderr).
// The entry (dist/main.cjs) and the programs are separate bundles, each with a copy of this
// module: the mark lives on the stream, so the handler is attached once.
const GUARDED = Symbol.for('assess.stdout-guarded');

export function guardedStdout(): NodeJS.WriteStream {
  const out = process.stdout as NodeJS.WriteStream & { [GUARDED]?: true };
  if (!out[GUARDED]) {
    out[GUARDED] = true;
    out.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      const cause = err.code === 'ENOSPC' ? 'no space left on the device' : err.code === 'EDQUOT' ? 'disk quota exceeded' : err.message;
      process.stderr.write(`error: cannot write to standard output: ${cause}${err.code ? ` (${err.code})` : ''}\n`);
      process.exit(2);
    });
  }
  return out;
}
