#!/usr/bin/env node
/** `npm create typemcp@latest [directory]` / `npx create-typemcp [directory]`. */
import { run } from './run.js';

void run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
