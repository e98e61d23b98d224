#!/usr/bin/env node
// The `typemcp` command. This file is in the repository (dist/ is not) so that npm links the
// command when it installs the workspace: it skips a bin whose target does not exist yet, and a
// clean clone is built after its install.
// Node's compile cache (Node 22.1+; absent on Node 20): the CLI's modules are compiled once and
// read from the cache afterwards, in Node's default folder (NODE_COMPILE_CACHE chooses another,
// NODE_DISABLE_COMPILE_CACHE=1 turns it off). Servers the CLI starts get their own entry's cache.
const { enableCompileCache } = require('node:module');
if (typeof enableCompileCache === 'function') {
  try {
    enableCompileCache();
  } catch {
    // no writable cache folder: start without it
  }
}
require('../dist/bin.js');
