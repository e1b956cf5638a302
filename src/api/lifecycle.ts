// Clean-up that outlives one command: what a module sets up on first use (the keep-alive pool)
// registers here, and runCli runs it after the command. Both sides import this small module,
// so the transport (and undici) is still loaded only by commands that send a request.
type Hook = () => void | Promise<void>;

const hooks = new Set<Hook>();

/** Runs `hook` once at the end of the current CLI run; returns a function that unregisters it. */
export function atRunEnd(hook: Hook): () => void {
  hooks.add(hook);
  return () => hooks.delete(hook);
}

/** Runs (and forgets) every registered hook; a failing hook does not stop the others. */
export async function runEndHooks(): Promise<void> {
  for (const hook of [...hooks].reverse()) {
    hooks.delete(hook);
    await Promise.resolve()
      .then(hook)
      .catch(() => undefined);
  }
}
