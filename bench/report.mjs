// Regenerates bench/README.md's results sections and the charts in bench/charts/ from the saved
// results in bench/results/*.json (written by run.mjs, http.mjs and tools-list.mjs). Measures nothing.
// Usage: node bench/report.mjs [--check] [--dir DIR]
//   --check  writes nothing; exits 1 listing the files that differ from what the results render
//   --dir    the folder holding README.md, results/ and charts/ (default: this bench/ folder)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleFiles, writeReport } from './lib/render.mjs';

const USAGE = 'usage: node bench/report.mjs [--check] [--dir DIR]';
let check = false;
let dir = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--check') check = true;
  else if (argv[i] === '--dir' && argv[i + 1]) dir = path.resolve(argv[++i]);
  else {
    console.error(`unknown argument ${argv[i]}\n${USAGE}`);
    process.exit(2);
  }
}

if (check) {
  const stale = staleFiles(dir);
  if (stale.length > 0) {
    console.error(`not what the saved results render (run \`npm run bench:report\`):\n${stale.map((f) => `  ${path.relative(process.cwd(), f)}`).join('\n')}`);
    process.exit(1);
  }
  console.log('bench report is up to date with bench/results/*.json');
} else {
  for (const f of writeReport(dir)) console.log(`wrote ${path.relative(process.cwd(), f)}`);
}
