/** The slow steps after the files are written: `npm install` and `git init`. */
import { spawn } from 'node:child_process';
import { npmCommand } from './vendor.js';

/** The outcome of a command: its exit code and everything it printed. */
export interface CommandResult {
  code: number;
  output: string;
}

/** Runs a command in `cwd`, collecting stdout and stderr; never rejects (a missing command is code 127). */
export function runCommand(command: string, args: string[], cwd: string): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => resolve({ code: 127, output: error.message }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** `npm install` in the project (npm_config_* environment variables apply, e.g. prefer-offline). */
export function npmInstall(projectDir: string): Promise<CommandResult> {
  return runCommand(npmCommand(), ['install', '--no-audit', '--no-fund'], projectDir);
}

/** What {@link gitInit} did. */
export type GitOutcome = 'committed' | 'initialized' | 'inside-work-tree' | 'no-git';

/**
 * `git init` and a first commit. Skipped inside an existing work tree (the project then belongs
 * to that repository); without a git identity the repository is left initialised, uncommitted.
 */
export async function gitInit(projectDir: string): Promise<GitOutcome> {
  const inside = await runCommand('git', ['rev-parse', '--is-inside-work-tree'], projectDir);
  if (inside.code === 127) return 'no-git';
  if (inside.code === 0 && inside.output.trim() === 'true') return 'inside-work-tree';
  if ((await runCommand('git', ['init', '-q'], projectDir)).code !== 0) return 'no-git';
  const added = await runCommand('git', ['add', '-A'], projectDir);
  const committed = added.code === 0 && (await runCommand('git', ['commit', '-q', '-m', 'Initial commit from create-typemcp'], projectDir)).code === 0;
  return committed ? 'committed' : 'initialized';
}
