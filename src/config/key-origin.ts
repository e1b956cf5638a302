// Where the run's API key came from, and what to do about it there when the service refuses it:
// one text for every command's 401 (src/cli/exit-codes.ts) and for `auth status`.
import type { KeySource } from './credentials.js';

export interface KeyOrigin {
  source: KeySource;
  profile: string;
  /** The --api-key-file path, when the key came from one. */
  file?: string;
}

/** The fix for a refused key, where the key came from. */
export function refusedKeyHint(o: KeyOrigin): string {
  const login = `assess auth login${o.profile === 'default' ? '' : ` --profile ${o.profile}`}`;
  switch (o.source) {
    case 'key-file':
      return (
        `the key in ${o.file ?? 'the file'} (--api-key-file) was ` +
        `refused; put the account's current key in that file`
      );
    case 'stdin':
      return "the key piped to --key-stdin was refused; pipe the account's current key";
    case 'env':
      return (
        "check ASSESS_API_KEY: the key it holds was refused; set the account's current key there, " +
        `or unset it to use the key stored in profile '${o.profile}' (${login})`
      );
    case 'profile':
      return `the key stored in profile '${o.profile}' was refused; log in again: ${login}`;
    case 'sandbox':
      return 'the sandbox refused its own key (a fault it was told to inject?); run with --debug to see the exchange';
  }
}
