// One exit-code story: every exit code the README and the manuals claim is read against the one
// table of the program (src/cli/exit-codes.ts). A claim is `exit N`, `exits N`, `exit codes (N …,
// M …)`: each code must be in the table, and a code said with words that name a meaning (an
// unknown id, a refused key, a timeout…) must be that meaning's code — so "3 unknown id" fails, as
// the docs once said of `attempts wait` while the program exits 4. The exit tables themselves
// list exactly the program's codes, each with its meaning.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes.js';
import { ROOT } from '../helpers/cli.js';

/** Words that name a meaning, and the code the table gives it. */
const MEANINGS: Array<[code: number, words: RegExp]> = [
  [EXIT.notFound, /unknown (?:invitation )?id|another account|other account|foreign id|not found/i],
  [EXIT.auth, /refused key|key (?:is )?refused|refuses the key|no key|missing key/i],
  [EXIT.network, /(?<!busy[ _])(?:timed? ?out|timeout)|network|unreachable|rate.limit/i],
  [EXIT.partial, /partial/i],
  [EXIT.terminated, /SIGTERM/],
  [EXIT.hangup, /SIGHUP|hang.?up/i],
  [EXIT.interrupted, /Ctrl-C|SIGINT|interrupt/i],
];
/** What each code's row of an exit table says. */
const ROW_WORDS: Record<keyof typeof EXIT, RegExp> = {
  ok: /success|\bok\b/i,
  failed: /refused or failed/i,
  usage: /usage/i,
  auth: /auth/i,
  notFound: /not found/i,
  partial: /partial/i,
  network: /network/i,
  interrupted: /interrupt/i,
  terminated: /SIGTERM|terminated/i,
  hangup: /SIGHUP|hang.?up/i,
};
const CODES = new Set<number>(Object.values(EXIT));
const NAME_OF = new Map<number, keyof typeof EXIT>(
  (Object.keys(EXIT) as Array<keyof typeof EXIT>).map((name) => [EXIT[name], name]),
);

// the manuals and the README; commands.md is generated from --help, CONVENTIONS.md is for contributors
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md') && f !== 'commands.md')
    .map((f) => `docs/${f}`),
];
const text = (file: string) => readFileSync(join(ROOT, file), 'utf8').replace(/\s+/g, ' ');

interface Claim {
  file: string;
  at: string;
  /** The codes claimed, with the words said with each. */
  pairs: Array<[code: number, words: string]>;
  /** The clause before the claim ("an unknown id → exit 4"). */
  before: string;
}

/** The claims of a text (a file's, spaces collapsed). */
function claimsIn(file: string, t: string): Claim[] {
  const out: Claim[] = [];
  for (const m of t.matchAll(/\bexit(?:s|ed)?(?: codes?)?:?\s*\(?\s*(?=\d)/gi)) {
    const rest = t.slice(m.index + m[0].length);
    const segment = rest.slice(0, Math.min(200, rest.search(/[().;|]|$/)));
    const pairs: Claim['pairs'] = [];
    for (const item of segment.split(/\s*[,·]\s*(?:or\s+|else\s+)?/)) {
      const p = /^(\d{1,3})\b(.*)$/.exec(item.trim());
      if (!p) break;
      pairs.push([Number(p[1]), p[2]!]);
    }
    out.push({
      file,
      at: t.slice(Math.max(0, m.index - 40), m.index + m[0].length + 60),
      pairs,
      before: t.slice(0, m.index).split(/[.;(]/).at(-1) ?? '',
    });
  }
  return out;
}

/** What is wrong with one claim, in words. */
function problems(c: Claim): string[] {
  const found: string[] = [];
  const codes = new Set(c.pairs.map(([code]) => code));
  for (const [code, words] of c.pairs) {
    if (!CODES.has(code)) found.push(`${code} is no exit code of the program`);
    for (const [meant, re] of MEANINGS)
      if (re.test(words) && meant !== code) found.push(`"${code}${words}": that is exit ${meant}`);
  }
  for (const [meant, re] of MEANINGS)
    if (re.test(c.before) && !codes.has(meant))
      found.push(`"…${c.before.slice(-50)}" is exit ${meant}, not ${[...codes].join('/')}`);
  return found.map((p) => `${c.file}: ${p}  [${c.at}]`);
}

describe('exit codes in the README and the manuals', () => {
  const all = DOCS.flatMap((f) => claimsIn(f, text(f)));

  it('are read from every manual (the reader finds the claims)', () => {
    expect(all.length).toBeGreaterThan(50);
    expect(new Set(all.map((c) => c.file))).toEqual(new Set(DOCS.filter((f) => /exits? \d/i.test(text(f)))));
  });

  it('each claim names a code of the program, and the code of what it says', () => {
    expect(all.flatMap(problems)).toEqual([]);
  });

  it('the checks find a wrong claim: "3 unknown id", "an unknown id → exit 3", "exit 7"', () => {
    const fake = (t: string) => claimsIn('example', t);
    expect(fake('attempts wait (exit 0 reached, 3 unknown id, 6 timed out)').flatMap(problems)).toHaveLength(1);
    expect(fake('an unknown id → exit 3').flatMap(problems)).toHaveLength(1);
    expect(fake('a bad value is exit 7').flatMap(problems)).toHaveLength(1);
    expect(fake('an unknown id → exit 4').flatMap(problems)).toEqual([]);
  });

  it("the exit tables list exactly the program's codes, each with its meaning", () => {
    const tables: Array<[file: string, rows: Array<[number, string]>]> = [];
    for (const file of DOCS) {
      const md = readFileSync(join(ROOT, file), 'utf8');
      // a Markdown table headed | exit | meaning |
      for (const t of md.matchAll(/^\| exit \| meaning \|\n\|[-|]+\|\n((?:\|.*\|\n)+)/gm))
        tables.push([file, [...t[1]!.matchAll(/^\| (\d+) \| (.*) \|$/gm)].map((r) => [Number(r[1]), r[2]!])]);
      // the README's one-line list: "Exit codes: 0 ok · 1 … · 143 SIGTERM."
      const line = /Exit codes: ((?:\d+ [^·]+· ?)+\d+ [^.]+)\./.exec(md.replace(/\s+/g, ' '));
      if (line) tables.push([file, line[1]!.split(/\s*·\s*/).map((i) => [Number(/^\d+/.exec(i)![0]), i])]);
    }
    expect(tables.map(([f]) => f)).toEqual(expect.arrayContaining(['README.md', 'docs/scripting.md']));
    for (const [file, rows] of tables) {
      expect(
        rows.map(([code]) => code).sort((a, b) => a - b),
        file,
      ).toEqual([...CODES].sort((a, b) => a - b));
      for (const [code, meaning] of rows)
        expect(meaning, `${file}: exit ${code}`).toMatch(ROW_WORDS[NAME_OF.get(code)!]);
    }
  });
});
