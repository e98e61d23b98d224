/** createProject(): writes a new TypeMCP project, then installs and initialises git as asked. */
import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import type { ProjectOptions } from './options.js';
import { buildPackageJson, type PackageSources } from './package-json.js';
import { stdoutOutput, withProgress, type Output } from './progress.js';
import { readme } from './readme.js';
import { scaffold, writeFile } from './scaffold.js';
import { gitInit, npmInstall, type GitOutcome } from './steps.js';
import { packCheckout, VENDORED } from './vendor.js';
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
 * Generates the project described by `options` into `options.directory` (relative to `cwd`),
 * reporting slow steps on `out`. Throws, before writing anything, when the directory is not empty
 * or `--from` does not point at a built checkout; throws after writing when `npm install` fails.
 * @publicApi
 */
export async function createProject(options: ProjectOptions, out: Output = stdoutOutput(), cwd: string = process.cwd()): Promise<CreatedProject> {
  const directory = path.resolve(cwd, options.directory);
  assertUsable(directory);
  const files = scaffold(directory, options);
  const version = generatorVersion();
  const sources = options.from
    ? await withProgress(out, `Packing @typemcp/* from ${options.from}`, async () => ({
        value: await packCheckout(path.resolve(cwd, options.from!), directory),
        done: `Packed ${VENDORED.length} packages into vendor/`,
      }))
    : (Object.fromEntries(VENDORED.map((name) => [name, version])) as PackageSources);
  writeFile(path.join(directory, 'package.json'), `${JSON.stringify(buildPackageJson(options, sources), null, 2)}\n`);
  writeFile(path.join(directory, 'README.md'), readme(options));
  files.push('README.md', 'package.json');
  files.sort();

  if (options.install) {
    await withProgress(out, 'Installing dependencies (npm install)', async () => {
      const result = await npmInstall(directory);
      if (result.code !== 0) throw new Error(`npm install failed in ${directory}:\n${result.output.trim()}`);
      return { value: undefined, done: 'Installed dependencies' };
    });
  }
  const git = options.git ? await gitInit(directory) : undefined;
  return { directory, files, sources, installed: options.install, ...(git ? { git } : {}) };
}
