// The one clean-up registry of a CLI run (Runtime.exitHooks, filled through ctx.onExit): results
// files, temp files, an embedded sandbox, the run's keep-alive pool. runCli runs it after the
// command, also after an error or Ctrl-C.
export type ExitHook = () => Promise<void> | void;

/** Runs (and forgets) every hook, last registered first; a failing hook does not stop the others. */
export async function runExitHooks(hooks: ExitHook[]): Promise<void> {
  for (let hook = hooks.pop(); hook; hook = hooks.pop())
    await Promise.resolve()
      .then(hook)
      .catch(() => undefined);
}
