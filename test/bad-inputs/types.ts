// One bad-input case: a command line (plus optional stdin and files) that must be refused as a
// usage error (exit 2) before anything is sent, with a message matching `expect`.
export interface BadInput {
  name: string;
  args: string[];
  stdin?: string | Buffer;
  /** Written into the case's working directory before the run (relative paths). */
  files?: Record<string, string | Buffer>;
  /** Merged over the default environment (base URLs of the recording proxy, account A's key). */
  env?: Record<string, string | undefined>;
  /** The message must match: it names the flag, argument or file and the problem. */
  expect: RegExp;
  /**
   * A noun without a verb answers with its help (on stderr, exit 2: nothing ran), as clig.dev
   * says a command missing what it needs should: the one usage answer longer than two lines.
   */
  help?: true;
}

/** 100 KB of text: a "huge string" that must be refused without being echoed whole. */
export const HUGE = 'a'.repeat(100 * 1024);

export const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A key piped to --key-stdin, and the whole of what is printed when another input reads standard input too (the key
 * never). */
export const PIPED_KEY = 'sk_sandbox_acme_7Hq2Lm9Xw4Tc\n';
export const twoStdinReaders = (other: string) =>
  new RegExp(
    `^error: --key-stdin and ${esc(other)} both read standard input\n  give the key with --api-key-file F or ` +
      `ASSESS_API_KEY\n$`,
  );

/** Flags that make `invite` valid apart from what a case breaks. */
export const INVITE_OK = ['--email', 'ann@example.com', '--name', 'Ann Lee'];
