/** createProject(): writes a new TypeMCP project, then installs and initialises git as asked. */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import type { ProjectOptions } from './options.js';
import { buildPackageJson, type PackageSources } from './package-json.js';
import { stdoutOutput, withProgress, type Output } from './progress.js';
import { readme } from './readme.js';
import { scaffold, writeFile } from './scaffold.js';
import { gitInit, npmInstall, type GitOutcome } from './steps.js';
import { checkoutPackages, packCheckout, VENDORED } from './vendor.js';
import { generatorVersion } from './versions.js';

/** What {@link createProject} did. @publicApi */
export interface CreatedProject {
  /** The project's absolute path. */
  directory: string;
  /** The files written (relative to `directory`), before install. */
  files: string[];
  /** The @typemcp/* sources written into package.json (versions or `file:vendor/...` tarballs). */
  sources: PackageSources;
  /** Whether dependencies were installed. */
  installed: boolean;
  /** What happened with git, when asked. */
  git?: GitOutcome;
}

/** Files a folder may already hold and still count as empty. */
const IGNORABLE = new Set(['.git', '.DS_Store', 'Thumbs.db']);

function assertUsable(dir: string): void {
  if (!existsSync(dir)) return;
  const present = readdirSync(dir).filter((f) => !IGNORABLE.has(f));
  if (present.length) throw new Error(`${dir} is not empty (${present.slice(0, 3).join(', ')}${present.length > 3 ? ', ...' : ''}); choose a new directory`);
}

/**
 * Returns a function that removes what will be written into `dir` from now on: the folder itself
 * and any missing parent when they do not exist yet, otherwise only the entries added to it.
 */
function undoWrites(dir: string): () => void {
  if (existsSync(dir)) {
    const before = new Set(readdirSync(dir));
    return () => {
      for (const entry of readdirSync(dir)) if (!before.has(entry)) rmSync(path.join(dir, entry), { recursive: true, force: true });
    };
  }
  let top = dir;
  for (let up = path.dirname(top); up !== top && !existsSync(up); up = path.dirname(top)) top = up;
  return () => rmSync(top, { recursive: true, force: true });
}

/**
 * Generates the project described by `options` into `options.directory` (relative to `cwd`),
 * reporting slow steps on `out`. Throws, before writing anything, when the directory is not empty
 * or `--from` does not point at a built checkout; when a later step fails (e.g. `npm pack`),
 * removes what it wrote before throwing, so the same command can be run again. A failed
 * `npm install` leaves the written project in place, and says so.
 * @publicApi
 */
export async function createProject(options: ProjectOptions, out: Output = stdoutOutput(), cwd: string = process.cwd()): Promise<CreatedProject> {
  const directory = path.resolve(cwd, options.directory);
  assertUsable(directory);
  const checkout = options.from === undefined ? undefined : path.resolve(cwd, options.from);
  if (checkout) checkoutPackages(checkout);
  const undo = undoWrites(directory);
  let files: string[];
  let sources: PackageSources;
  try {
    files = scaffold(directory, options);
    const version = generatorVersion();
    sources = checkout
      ? await withProgress(out, `Packing @typemcp/* from ${options.from}`, async () => ({
          value: await packCheckout(checkout, directory),
          done: `Packed ${VENDORED.length} packages into vendor/`,
        }))
      : (Object.fromEntries(VENDORED.map((name) => [name, version])) as PackageSources);
    writeFile(path.join(directory, 'package.json'), `${JSON.stringify(buildPackageJson(options, sources), null, 2)}\n`);
    writeFile(path.join(directory, 'README.md'), readme(options));
  } catch (error) {
    undo();
    throw error;
  }
  files.push('README.md', 'package.json');
  files.sort();

  if (options.install) {
    await withProgress(out, 'Installing dependencies (npm install)', async () => {
      const result = await npmInstall(directory);
      if (result.code !== 0) {
        throw new Error(`npm install failed in ${directory} (the project is written: run npm install there once the cause is fixed):\n${result.output.trim()}`);
      }
      return { value: undefined, done: 'Installed dependencies' };
    });
  }
  const git = options.git ? await gitInit(directory) : undefined;
  return { directory, files, sources, installed: options.install, ...(git ? { git } : {}) };
}
