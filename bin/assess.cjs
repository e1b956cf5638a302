#!/usr/bin/env node
// Shim: the real entry is the built bundle (npm run build). CommonJS, as is dist/main.cjs:
// Node starts a CommonJS entry sooner than an ES module one.
'use strict';
require('../dist/main.cjs');
