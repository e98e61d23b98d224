/**
 * `--from <checkout>`: packs the @typemcp/* packages of a local TypeMCP checkout into the new
 * project's `vendor/` folder, so the project installs them from there instead of a registry.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { PackageSources, TypeMcpPackage } from './package-json.js';

const run = promisify(execFile);

/** The packages taken from the checkout (dependencies first). */
export const VENDORED: readonly TypeMcpPackage[] = ['protocol', 'core', 'apps', 'http', 'redis', 'gateway', 'skills', 'testing', 'cli'];

/** The folder, inside the new project, that holds the packed tarballs. */
export const VENDOR_DIR = 'vendor';

/** Package folders of a checkout, or an error that says what is missing (not a checkout, not built). */
export function checkoutPackages(checkout: string): Record<TypeMcpPackage, string> {
  const root = path.resolve(checkout);
  const dirs = Object.fromEntries(VENDORED.map((name) => [name, path.join(root, 'packages', name)])) as Record<TypeMcpPackage, string>;
  const missing = VENDORED.filter((name) => !existsSync(path.join(dirs[name], 'package.json')));
  if (missing.length) throw new Error(`--from ${checkout}: not a TypeMCP checkout (no packages/${missing[0]}/package.json)`);
  const unbuilt = VENDORED.filter((name) => !existsSync(path.join(dirs[name], 'dist', 'index.js')));
  if (unbuilt.length) {
    throw new Error(`--from ${checkout}: packages/${unbuilt.join(', packages/')} not built; run \`npm run build\` in the checkout first`);
  }
  return dirs;
}

/** Runs `npm pack` for every package of the checkout into `<project>/vendor` and returns their `file:` specs. */
export async function packCheckout(checkout: string, projectDir: string): Promise<PackageSources> {
  const dirs = checkoutPackages(checkout);
  mkdirSync(path.join(projectDir, VENDOR_DIR), { recursive: true });
  const { stdout } = await run(npmCommand(), ['pack', ...VENDORED.map((name) => dirs[name]), '--pack-destination', VENDOR_DIR, '--json', '--ignore-scripts'], {
    cwd: projectDir,
    maxBuffer: 16 * 1024 * 1024,
    shell: process.platform === 'win32',
  });
  const packed = JSON.parse(stdout) as { name: string; filename: string }[];
  const byName = new Map(packed.map((p) => [p.name, p.filename]));
  return Object.fromEntries(
    VENDORED.map((name) => {
      const file = byName.get(`@typemcp/${name}`);
      if (!file) throw new Error(`npm pack did not produce @typemcp/${name}`);
      return [name, `file:${VENDOR_DIR}/${file}`];
    }),
  ) as PackageSources;
}

/** `npm` (`npm.cmd` on Windows). */
export function npmCommand(): string {
  return process.platform === 'win32' ? 'npm.cmd' : 'npm';
}
