#!/usr/bin/env node
// Shim: the real entry is the built bundle (npm run build).
import '../dist/main.js';
