// The layout rule of docs/CONVENTIONS.md: beside a noun's verbs sit only index.ts (the noun) and
// command.ts (the noun's own command); helpers live in shared/ folders, so a file name there is
// always a command. Nouns are rooms: a file under src/commands/<noun>/ imports nothing of another
// noun, and src/commands/shared/ (what nouns share) imports no noun. Below src/commands, only its
// index is imported (the program and `assess mcp` load nouns through it). The layers: src/api
// imports nothing above it, clients are made in src/api, the sandbox is used through its two
// entries (the server, and the specs flag parsers read), and no runtime import makes a cycle.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');
const COMMANDS = join(SRC, 'commands');

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

/** The room a path under src/commands belongs to: a noun, 'shared', or null (src/commands/index.ts, or outside). */
function roomOf(root: string, path: string): string | null {
  const parts = relative(root, path).split(sep);
  return parts.length > 1 && parts[0] !== '..' ? parts[0]! : null;
}

/**
 * Every import that leaves its room: static, dynamic and type-only (`import('…')` in a type), as
 * `file → specifier`. A noun may import its own files, src/commands/shared/ and the layers below
 * src/commands (api, output, cli…); shared/ may import only itself and those layers.
 */
function crossings(root = COMMANDS): string[] {
  const out: string[] = [];
  for (const file of filesUnder(root)) {
    const from = roomOf(root, file);
    if (from === null) continue;
    for (const { fileName: spec } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!spec.startsWith('.')) continue;
      const to = roomOf(root, resolve(dirname(file), spec));
      if (to === null || to === from || (to === 'shared' && from !== 'shared')) continue;
      out.push(`${relative(root, file).split(sep).join('/')} → ${spec}`);
    }
  }
  return out;
}

describe('src/commands layout', () => {
  it('every file beside the verbs is a command, its handler, the noun, or the noun command', () => {
    const misplaced: string[] = [];
    for (const noun of readdirSync(COMMANDS, { withFileTypes: true })) {
      if (!noun.isDirectory() || noun.name === 'shared') continue;
      for (const f of readdirSync(join(COMMANDS, noun.name), { withFileTypes: true })) {
        if (f.isDirectory() || !f.name.endsWith('.ts')) continue;
        const text = readFileSync(join(COMMANDS, noun.name, f.name), 'utf8');
        const handlerOf = f.name.replace(/\.run\.ts$/, '.ts');
        const ok =
          f.name === 'index.ts'
            ? /export default defineNoun\(/.test(text)
            : handlerOf !== f.name
              ? /^export const run: Run</m.test(text) && readdirSync(join(COMMANDS, noun.name)).includes(handlerOf)
              : /export default defineCommand\(/.test(text);
        if (!ok) misplaced.push(`${noun.name}/${f.name}`);
      }
    }
    expect(misplaced).toEqual([]);
  });

  it('a command declares its run as a handler module of its own, imported only when it runs', () => {
    const inline: string[] = [];
    for (const file of filesUnder(COMMANDS).filter((f) =>
      /export default defineCommand\(/.test(readFileSync(f, 'utf8')),
    )) {
      const text = readFileSync(file, 'utf8');
      const own = `./${basename(file, '.ts')}.run.js`;
      const lazy = text.includes(`handler: () => import('${own}')`);
      const eager = new RegExp(`from '${own.replace(/\./g, '\\.')}'`).test(text);
      if (!lazy || eager) inline.push(short(file));
    }
    expect(inline).toEqual([]);
  });

  it('a noun that is itself a command takes it from command.ts', async () => {
    const NOUNS = await (await import('../../src/commands/index.js')).loadNouns();
    for (const n of NOUNS.filter((x) => x.self)) {
      const text = readFileSync(join(COMMANDS, n.name, 'index.ts'), 'utf8');
      expect({ noun: n.name, fromCommandTs: /from '\.\/command\.js'|import\('\.\/command\.js'\)/.test(text) }).toEqual({
        noun: n.name,
        fromCommandTs: true,
      });
    }
  });

  it('no noun imports another noun, and shared/ imports no noun', () => {
    expect(crossings()).toEqual([]);
  });

  it('the layers below src/commands reach into it only through its index (the nouns)', () => {
    const into: string[] = [];
    for (const file of filesUnder(SRC)) {
      if (!relative(COMMANDS, file).startsWith('..')) continue; // a file of src/commands
      for (const { fileName: spec } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
        const target = spec.startsWith('.') ? resolve(dirname(file), spec) : '';
        if (target && !relative(COMMANDS, target).startsWith('..') && target !== join(COMMANDS, 'index.js'))
          into.push(`${relative(SRC, file).split(sep).join('/')} → ${spec}`);
      }
    }
    expect(into).toEqual([]);
  });
});

/** Every file under src and the src files it imports at run time (static and dynamic; type-only left out). */
function runtimeGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of filesUnder(SRC)) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
    const specs: string[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const c = node.importClause;
        const onlyTypes =
          c !== undefined &&
          (c.isTypeOnly ||
            (!c.name &&
              c.namedBindings !== undefined &&
              ts.isNamedImports(c.namedBindings) &&
              c.namedBindings.elements.length > 0 &&
              c.namedBindings.elements.every((e) => e.isTypeOnly)));
        if (!onlyTypes) specs.push(node.moduleSpecifier.text);
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        if (!node.isTypeOnly) specs.push(node.moduleSpecifier.text);
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        // a declaration's import of its own handler (list.ts → ./list.run.js) runs only once the
        // declaration is loaded, so the handler may read the declaration's constants (its columns)
        const own = `./${basename(file, '.ts')}.run.js`;
        if (node.arguments[0].text !== own) specs.push(node.arguments[0].text);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
    graph.set(
      file,
      specs.filter((s) => s.startsWith('.')).map((s) => resolve(dirname(file), s).replace(/\.js$/, '.ts')),
    );
  }
  return graph;
}

/** The cycles of a graph, each as `a → b → … → a` (one per strongly connected part). */
function cycles(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string): void => {
    state.set(n, 'open');
    stack.push(n);
    for (const m of graph.get(n) ?? []) {
      if (!graph.has(m)) continue;
      if (state.get(m) === 'open') found.push([...stack.slice(stack.indexOf(m)), m].map(short).join(' → '));
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const n of graph.keys()) if (!state.has(n)) visit(n);
  return found;
}

const short = (file: string) => relative(SRC, file).split(sep).join('/');
const layerOf = (file: string) => short(file).split('/')[0]!.replace(/\.ts$/, '');

describe('layers and entries', () => {
  const graph = runtimeGraph();
  const imports = [...graph].flatMap(([from, tos]) => tos.map((to) => ({ from, to })));

  it('src/api imports nothing above it: only itself, src/util, src/errors.ts and src/version.ts', () => {
    const below = new Set(['api', 'util', 'errors', 'version']);
    const up = imports.filter(({ from, to }) => layerOf(from) === 'api' && !below.has(layerOf(to)));
    expect(up.map(({ from, to }) => `${short(from)} → ${short(to)}`)).toEqual([]);
  });

  it('outside the sandbox, it is used only through its entries (the server, and the specs flag parsers read)', () => {
    const entries = ['sandbox/index.ts', 'sandbox/specs.ts'];
    const into = imports.filter(
      ({ from, to }) => layerOf(from) !== 'sandbox' && layerOf(to) === 'sandbox' && !entries.includes(short(to)),
    );
    expect(into.map(({ from, to }) => `${short(from)} → ${short(to)}`)).toEqual([]);
  });

  it('the sandbox’s cheap entry loads no server: none of its imports reach fastify, the store or the routes', () => {
    const reached = new Set<string>();
    const walk = (f: string) => {
      if (reached.has(f)) return;
      reached.add(f);
      for (const t of graph.get(f) ?? []) walk(t);
    };
    walk(join(SRC, 'sandbox/specs.ts'));
    expect([...reached].map(short).filter((f) => /sandbox\/(server|store|routes\/)/.test(f))).toEqual([]);
  });

  it('clients are made in src/api: nothing else constructs a Transport or calls createV3Client / createV2Client', () => {
    const makers = filesUnder(SRC).filter(
      (f) => layerOf(f) !== 'api' && /new Transport\(|createV[23]Client\(/.test(readFileSync(f, 'utf8')),
    );
    expect(makers.map(short)).toEqual([]);
  });

  it('no runtime import cycle (static or dynamic)', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('the cycle check finds a cycle (it can fail)', () => {
    const g = new Map([
      ['/src/a.ts', ['/src/b.ts']],
      ['/src/b.ts', ['/src/a.ts']],
    ]);
    expect(cycles(g)).toHaveLength(1);
  });
});
