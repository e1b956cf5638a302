// The command's limit on waiting for the service (`--timeout S`): one clock shared by every
// request, retry, backoff and page of a command, started by its first request. Each try has its
// own, shorter limit besides (`--try-timeout`, transport.ts). Without --timeout there is none.

export class WaitBudget {
  private endsAt: number | undefined;
  constructor(
    /** The whole command's limit in ms; undefined: no limit. */
    readonly limitMs: number | undefined,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Milliseconds left (Infinity without a limit); the first call starts the clock. */
  left(): number {
    if (this.limitMs === undefined) return Infinity;
    this.endsAt ??= this.clock() + this.limitMs;
    return Math.max(0, this.endsAt - this.clock());
  }

  /** The limit as the messages say it: `3 s`. */
  get shown(): string {
    return `${(this.limitMs ?? 0) / 1000} s`;
  }
}

const budgets = new WeakMap<object, WaitBudget>();

/** The budget of one command's connection (every client made from it shares it). */
export function budgetOf(owner: object, limitMs: number | undefined): WaitBudget {
  let b = budgets.get(owner);
  if (!b) budgets.set(owner, (b = new WaitBudget(limitMs)));
  return b;
}
