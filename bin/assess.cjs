#!/usr/bin/env node
// Shim: the real entry is the built bundle (npm run build). CommonJS, as is dist/main.cjs:
// Node starts a CommonJS entry sooner than an ES module one.
// The Node version is checked first, in syntax any Node parses (ES2015: no `?.`, `??` or
// trailing commas in calls): an older Node gets two lines and exit 2, not a stack trace.
'use strict';
var NEEDED = [22, 13];
var found = process.versions.node.split('.').map(Number);
if (found[0] < NEEDED[0] || (found[0] === NEEDED[0] && found[1] < NEEDED[1])) {
  var lines = [
    'error: assess needs Node.js ' + NEEDED.join('.') + ' or newer; this is Node.js ' + process.versions.node,
    '  install Node.js 24 LTS (https://nodejs.org), or use the standalone executable, which brings its own Node',
  ];
  process.stderr.write(lines.join('\n') + '\n');
  process.exit(2);
}
require('../dist/main.cjs');
