// Compiles at load the module bodies every command runs, so Node's compile cache holds them.
//
// V8 compiles a function the first time it runs, unless the function is in parentheses (its
// "PIFE" heuristic: such a function is compiled with the script), and Node's compile cache holds
// only what was compiled when the script loaded. esbuild wraps each module that a lazily
// imported verb reaches in a method, `__esm({"src/x.ts"(){…}})` or
// `__commonJS({"node_modules/y.js"(exports, module){…}})`, which V8 compiled anew at every run.
// The modules the program's entry imports statically (commander, zod/mini, src/cli, …) run in
// every command: their methods become `"src/x.ts":(function(){…})`. The other modules' bodies
// stay lazy: compiling all of them at load made the cache 2.4 times as large and the commands
// slower (bench/README.md). esbuild's wrapper calls the function by the property's value, so the
// change is only in when V8 compiles it. The source map's columns are shifted to match.
//
// To delete: drop the call in scripts/build.mjs (and this file).
import { parse } from 'acorn';
import { decode, encode } from '@jridgewell/sourcemap-codec';

/** The modules `entry` reaches through static imports (and require() calls inside packages). */
export function staticClosure(metafile, entry) {
  const seen = new Set();
  const todo = [entry];
  while (todo.length) {
    const path = todo.pop();
    if (seen.has(path)) continue;
    seen.add(path);
    for (const i of metafile.inputs[path]?.imports ?? []) {
      if (i.external) continue;
      // import() of a verb or a noun is the lazy part; a package's own require() runs at once
      if (i.kind === 'import-statement' || (i.kind === 'require-call' && /(^|\/)node_modules\//.test(path)))
        todo.push(i.path);
    }
  }
  return seen;
}

/**
 * Rewrites esbuild's module wrappers whose key is in `keys` from methods to parenthesized
 * functions. `map`: the output's source map (JSON text), shifted to match. Returns both and how
 * many wrappers changed.
 */
export function eagerModules(code, map, keys) {
  const ast = parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true });
  const inserts = []; // [offset, text], text goes before what is at offset
  for (const stmt of ast.body) {
    if (stmt.type !== 'VariableDeclaration') continue;
    for (const d of stmt.declarations) {
      const call = d.init;
      if (
        call?.type !== 'CallExpression' ||
        call.callee.type !== 'Identifier' ||
        !/^__(esm|commonJS)$/.test(call.callee.name)
      )
        continue;
      const obj = call.arguments[0];
      const prop = obj?.type === 'ObjectExpression' && obj.properties.length === 1 ? obj.properties[0] : null;
      if (!prop?.method || prop.key.type !== 'Literal' || !keys.has(prop.key.value)) continue;
      inserts.push([prop.value.start, ':(function'], [prop.value.end, ')']);
    }
  }
  let out = '';
  let at = 0;
  for (const [offset, text] of inserts) {
    out += code.slice(at, offset) + text;
    at = offset;
  }
  out += code.slice(at);
  return { code: out, map: map === undefined ? undefined : shiftMap(map, code, inserts), wrapped: inserts.length / 2 };
}

/** Moves each mapping on a line right by the text inserted at or before its column. */
function shiftMap(mapText, code, inserts) {
  const map = JSON.parse(mapText);
  const lines = decode(map.mappings);
  const byLine = new Map(); // line → [[column, length]] in order
  let line = 0;
  let lineStart = 0;
  for (const [offset, text] of inserts) {
    for (let nl = code.indexOf('\n', lineStart); nl !== -1 && nl < offset; nl = code.indexOf('\n', lineStart)) {
      line++;
      lineStart = nl + 1;
    }
    if (!byLine.has(line)) byLine.set(line, []);
    byLine.get(line).push([offset - lineStart, text.length]);
  }
  for (const [l, shifts] of byLine)
    for (const seg of lines[l] ?? []) {
      let by = 0;
      for (const [column, length] of shifts) if (column <= seg[0]) by += length;
      seg[0] += by;
    }
  map.mappings = encode(lines);
  return JSON.stringify(map);
}
