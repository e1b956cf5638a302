// The secrets of a run and the one way they are masked. Every secret the CLI holds (the API key,
// webhook secrets, listener tokens, URL passwords) is added to the run's Secrets; whatever is
// shown (stdout, stderr, --debug, the files a command writes, MCP results) goes through its
// scrub(). A secret is masked whole and in part: any run of 12 of its characters is a part (of a
// shorter one, all but four, at least 8) — a server that echoes the key minus its last four
// characters must not get it printed — in the text as it is, URL-encoded or JSON-escaped.
import { StringDecoder } from 'node:string_decoder';
import { Transform, type TransformCallback } from 'node:stream';

export const MASK = '****';

/** Shows only the last four characters: enough to tell keys apart, useless to an attacker. */
export function maskKey(key: string | undefined): string {
  if (!key) return '(none)';
  return key.length <= 8 ? MASK : `${MASK}${key.slice(-4)}`;
}

// scheme://user:password@host — the userinfo of a URL is a credential wherever it is shown.
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^/\s?#]+)@/gi; // greedy: up to the last @ of the authority

/** Masks the userinfo of every URL in the text: `https://u:p@host` → `https://****@host`. */
export function maskUrlCredentials(text: string): string {
  if (!text.includes('@')) return text;
  return text.replace(USERINFO, `$1${MASK}@`);
}

/**
 * A text meant as a URL, shown without what may be its userinfo even when no parser takes it
 * (`https//u:p@host`, `htps:/u:p@host`, `u:p@host`): everything before the last @ of the part
 * before the path.
 */
export function maskUserinfoLoosely(text: string): string {
  if (!text.includes('@')) return text;
  const lead = /^[a-z][a-z0-9+.-]*:?\/+/i.exec(text)?.[0] ?? '';
  const authority = text.slice(lead.length).split(/[/?#\s]/, 1)[0]!;
  const at = authority.lastIndexOf('@');
  return at < 0 ? text : `${lead}${MASK}${text.slice(lead.length + at)}`;
}

/** The shortest run of a secret's characters that is masked as a part of it. */
const PART = 12;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A secret of the run: masked whole, and by any run of `part` of its characters. */
interface Known {
  text: string;
  part: number;
}

export class Secrets {
  private readonly known: Known[] = [];
  private readonly texts = new Set<string>();
  /** Every part, to the secrets it starts at (text, offset); with the pattern that finds them. */
  private parts: Map<string, Array<{ s: string; at: number }>> | undefined;
  private pattern: RegExp | null | undefined;

  /** Adds secrets (shorter than 4 characters: ignored; they would mask ordinary words). */
  add(...values: Array<string | undefined | null>): this {
    for (const v of values) {
      if (!v || v.length < 4) continue;
      for (const form of [v, encodeURIComponent(v), JSON.stringify(v).slice(1, -1)]) {
        if (this.texts.has(form)) continue;
        this.texts.add(form);
        this.known.push({ text: form, part: partOf(form) });
        this.pattern = undefined;
      }
    }
    return this;
  }

  /**
   * Shows a secret once where the user asked for it (`--print-secret`, `--print-url`): `write` runs
   * with it unmasked, and it is masked again after.
   */
  revealed(value: string | undefined, write: () => void): void {
    const forms = value ? this.known.filter((k) => k.text === value || k.text === encodeURIComponent(value)) : [];
    for (const k of forms) this.known.splice(this.known.indexOf(k), 1);
    this.pattern = undefined;
    try {
      write();
    } finally {
      this.known.push(...forms);
      this.pattern = undefined;
    }
  }

  /** The password (and user:password) of a URL, when it has them. */
  addUrl(url: string | undefined): this {
    if (!url || !URL.canParse(url)) return this;
    const u = new URL(url);
    if (u.password) this.add(u.password, decodeURIComponent(u.password), `${u.username}:${u.password}`);
    else if (u.username) this.add(u.username, decodeURIComponent(u.username));
    return this;
  }

  /** The longest text a secret may take: a stream holds back one less than this between chunks. */
  get longest(): number {
    return this.known.reduce((n, k) => Math.max(n, k.text.length), 0);
  }

  /** The text with every secret (and part of one) masked, and URL userinfo too. */
  scrub(text: string): string {
    const out = maskUrlCredentials(text);
    const ranges = this.find(out);
    return ranges.length ? apply(out, ranges) : out;
  }

  /** A JSON value with every string in it (keys too) scrubbed. */
  scrubValue<T>(value: T): T {
    if (this.known.length === 0) return value;
    return JSON.parse(this.scrub(JSON.stringify(value) ?? 'null')) as T;
  }

  /**
   * A Transform of text that scrubs across chunk boundaries: it holds back the end of each chunk
   * that could be the start of a secret until the next one (or the end) says.
   */
  stream(): Transform {
    let held = '';
    const keep = Math.max(0, this.longest - 1);
    const utf8 = new StringDecoder('utf8'); // a character split between chunks is kept whole
    return new Transform({
      decodeStrings: false,
      transform: (chunk: Buffer | string, _enc, cb: TransformCallback) => {
        const text = held + (typeof chunk === 'string' ? chunk : utf8.write(chunk));
        let cut = Math.max(0, text.length - keep);
        const ranges = this.find(text);
        for (const [a, b] of ranges) if (b > cut && a < cut) cut = a;
        held = text.slice(cut);
        const head = text.slice(0, cut);
        const inHead = ranges.filter(([, b]) => b <= cut);
        cb(null, maskUrlCredentials(inHead.length ? apply(head, inHead) : head));
      },
      flush: (cb: TransformCallback) => cb(null, this.scrub(held + utf8.end())),
    });
  }

  /** Where secrets (or parts of them) are in the text: sorted, maximal ranges [from, to). */
  private find(text: string): Array<[number, number]> {
    const re = this.compiled();
    if (!re || !this.parts) return [];
    re.lastIndex = 0;
    const ranges: Array<[number, number]> = [];
    for (let m = re.exec(text); m; m = re.exec(text)) {
      let best: [number, number] = [m.index, m.index + m[0].length];
      for (const { s, at } of this.parts.get(m[0]) ?? []) {
        let a = m.index;
        let b = m.index + m[0].length;
        for (let i = at; a > 0 && i > 0 && text[a - 1] === s[i - 1]; i--) a--;
        for (let j = at + m[0].length; b < text.length && j < s.length && text[b] === s[j]; j++) b++;
        if (b - a > best[1] - best[0]) best = [a, b];
      }
      const last = ranges.at(-1);
      if (last && best[0] <= last[1]) last[1] = Math.max(last[1], best[1]);
      else ranges.push(best);
      re.lastIndex = Math.max(best[1], m.index + 1);
    }
    return ranges;
  }

  private compiled(): RegExp | null {
    if (this.pattern !== undefined) return this.pattern;
    const parts = new Map<string, Array<{ s: string; at: number }>>();
    for (const { text, part } of this.known)
      for (let i = 0; i + part <= text.length; i++) {
        const p = text.slice(i, i + part);
        const list = parts.get(p) ?? [];
        list.push({ s: text, at: i });
        parts.set(p, list);
      }
    this.parts = parts;
    // longest first: a whole short secret wins over a part of a long one at the same place
    const alternatives = [...parts.keys()].sort((a, b) => b.length - a.length).map(escapeRe);
    this.pattern = alternatives.length ? new RegExp(alternatives.join('|'), 'g') : null;
    return this.pattern;
  }
}

/** How many characters of a secret make a part of it: 12, or all but four of a shorter one (at least 4). */
function partOf(text: string): number {
  if (text.length <= 8) return text.length;
  return Math.min(PART, Math.max(8, text.length - 4));
}

function apply(text: string, ranges: Array<[number, number]>): string {
  let out = '';
  let at = 0;
  for (const [a, b] of ranges) {
    out += text.slice(at, a) + MASK;
    at = b;
  }
  return out + text.slice(at);
}
