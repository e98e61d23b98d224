/**
 * A failed jest run exits non-zero, which is what `.ci/run` (set -e) stops on. The open-handles
 * teardown (test/support/open-handles.teardown.ts) once waited on an unref'd timer: when the last
 * handles finished closing during that wait, Node ran out of work and exited with 0 before jest
 * had set its exit code, and CI passed a run with a failing suite. This runs the repository's own
 * jest configuration (teardown and forceExit included) on a fixture that fails in that shape.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

it('exits with 1 when a test fails, with a handle still closing at the teardown', () => {
  const run = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/jest/bin/jest.js'),
      '--config',
      path.join(ROOT, 'jest.config.ts'),
      '--ci',
      '--testMatch',
      '<rootDir>/test/fixtures/jest-exit/*.check.ts',
    ],
    { cwd: ROOT, encoding: 'utf8', timeout: 120_000 },
  );
  expect(run.stderr).toContain('fails, leaving a server closing');
  expect(run.stderr).toMatch(/Tests:\s+1 failed, 1 total/);
  expect(run.status).toBe(1);
}, 150_000);
