// Invitation ids for `callbacks process`: from arguments or a file (one per line, or comma /
// whitespace separated, `#` starts a comment), validated, de-duplicated, split into chunks.
import { UsageError } from '../../errors.js';

const ID = /^[1-9][0-9]{0,18}$/;
const isId = (s: string) => ID.test(s) && BigInt(s) <= 9223372036854775807n;

/**
 * Ids from a file's text; a bad word is a usage error naming its line and place, never the word
 * itself (a file named by mistake may be a key file).
 */
export function parseIdText(text: string, label = '--file'): string[] {
  const ids: string[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const words = line
      .replace(/#.*$/, '')
      .split(/[\s,]+/)
      .filter(Boolean);
    words.forEach((word, w) => {
      if (isId(word)) return;
      const where = `${label}: line ${i + 1}${words.length > 1 ? `, word ${w + 1}` : ''}`;
      throw new UsageError(
        `${where}: ${/^[1-9][0-9]*$/.test(word) ? 'too large for an invitation id' : 'not an invitation id'}`,
        'ids are positive integers, e.g. 5001, one per line or comma/space separated; # starts a comment',
      );
    });
    ids.push(...words);
  });
  return ids;
}

/** Ids from arguments (each may itself be comma separated). */
export function parseIdArgs(args: string[]): string[] {
  const ids = args.flatMap((a) => a.split(/[\s,]+/)).filter(Boolean);
  const bad = ids.find((s) => !isId(s));
  if (bad !== undefined)
    throw new UsageError(`<ids>: '${bad}' is not an invitation id`, 'ids are positive integers, e.g. 5001 5002');
  return ids;
}

/** First occurrence wins; `007` is not produced (ids have no leading zeros). */
export function dedupe(ids: string[]): string[] {
  return [...new Set(ids)];
}

export function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The ids of `chunkIds` that a 401 `{result:null, errors:[message, id, …]}` names, whether as
 * separate entries or inside a message; and the messages themselves (entries that are not ids).
 */
export function idsNamedIn(errors: string[], chunkIds: string[]): { ids: string[]; message: string } {
  const wanted = new Set(chunkIds);
  const named = new Set<string>();
  for (const e of errors) for (const token of e.match(/\d+/g) ?? []) if (wanted.has(token)) named.add(token);
  const message = errors.filter((e) => !isId(e.trim())).join('; ') || 'refused by the service';
  return { ids: [...named], message };
}
