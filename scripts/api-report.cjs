#!/usr/bin/env node
/**
 * The public API reports (packages/x/etc/x.api.md) from each package's built dist/index.d.ts,
 * with Microsoft's api-extractor. `--local` rewrites the reports (npm run api); without it
 * (npm run api:check) a report that differs from the API fails. Run after `tsc -b`.
 */
const { mkdirSync } = require('node:fs');
const path = require('node:path');
const { Extractor, ExtractorConfig } = require('@microsoft/api-extractor');

const PACKAGES = ['protocol', 'core', 'http', 'otel', 'apps', 'redis', 'gateway', 'skills', 'testing', 'cli', 'create-typemcp'];
const localBuild = process.argv.includes('--local');
const root = path.resolve(__dirname, '..');

let failed = 0;
for (const name of PACKAGES) {
  const config = ExtractorConfig.loadFileAndPrepare(path.join(root, 'packages', name, 'api-extractor.json'));
  if (localBuild) mkdirSync(path.dirname(config.reportFilePath), { recursive: true });
  const result = Extractor.invoke(config, { localBuild, showVerboseMessages: false });
  if (!result.succeeded || (!localBuild && result.apiReportChanged)) {
    failed++;
    console.error(
      `${name}: the API report ${path.relative(root, config.reportFilePath)} is out of date or the analysis failed; run npm run api and commit the report.`,
    );
  }
}
process.exitCode = failed ? 1 : 0;
