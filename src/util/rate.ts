// A rate as people write it: `25/s`, `25` (per second), `0.5/s`, `600/min`. One grammar for the
// client's `--rate` and the sandbox's `--rate-limit`, so both read the same text the same way.

/** Requests per second from `text`, or a sentence saying what is wrong. */
export function parseRate(text: string, max = 10_000): number | string {
  const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(?:\/\s*(s|sec|second|m|min|minute))?\s*$/i.exec(text);
  if (!m) return `'${text}' is not a rate`;
  const perMinute = /^m/i.test(m[2] ?? '');
  const perSecond = Number(m[1]) / (perMinute ? 60 : 1);
  if (!(perSecond > 0)) return `'${text}' must be above 0`;
  if (perSecond > max) return `'${text}' is above ${max}/s`;
  return perSecond;
}

/** `25/s`, `0.5/s`: a rate for people, to one decimal below 10. */
export function formatRate(perSecond: number): string {
  return `${perSecond < 10 ? Number(perSecond.toFixed(1)) : Math.round(perSecond)}/s`;
}
