/**
 * Running the official MCP conformance suites against the built everything server: the installed
 * CLIs, the scenario list of 0.1.13, a revision's required scenarios in 0.2.0-alpha.12, the
 * summary's parsing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { assertServerBuilt } from '../../../../test/support/stdio-session';

export const MAIN = path.resolve(__dirname, '../../dist/main.js');

/** The CLI script of an installed conformance package. */
function cliOf(packageName: string): { cli: string; dir: string } {
  const packageJson = require.resolve(`${packageName}/package.json`);
  const { bin } = JSON.parse(readFileSync(packageJson, 'utf8')) as { bin: Record<string, string> };
  return { cli: path.resolve(path.dirname(packageJson), bin.conformance), dir: path.dirname(packageJson) };
}

export const LEGACY_SUITE = cliOf('@modelcontextprotocol/conformance');
export const NEXT_SUITE = cliOf('conformance-next');

/** The 32 server scenarios of 0.1.13 `--suite all`. */
export const SCENARIOS = [
  'server-initialize',
  'logging-set-level',
  'ping',
  'completion-complete',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-with-logging',
  'tools-call-error',
  'tools-call-with-progress',
  'tools-call-sampling',
  'tools-call-elicitation',
  'json-schema-2020-12',
  'elicitation-sep1034-defaults',
  'server-sse-polling',
  'server-sse-multiple-streams',
  'elicitation-sep1330-enums',
  'resources-list',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'resources-subscribe',
  'resources-unsubscribe',
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
  'dns-rebinding-protection',
];

/** The scenario lines of a run's summary: name and whether it passed. */
export function summaryOf(output: string): { summary: string; lines: { name: string; ok: boolean }[] } {
  const summary = output.slice(output.indexOf('=== SUMMARY ==='));
  const lines = [...summary.matchAll(/^\s*(\S+) ([\w-]+): (\d+) passed, (\d+) failed/gm)].map(([, mark, name, , failed]) => ({
    name,
    ok: mark === '✓' && failed === '0',
  }));
  return { summary, lines };
}

/** The server scenarios a revision requires, from the suite's frozen requirements file. */
export function requiredScenarios(revision: string): string[] {
  const yaml = readFileSync(path.join(NEXT_SUITE.dir, 'requirements', `${revision}.yaml`), 'utf8');
  const section = /^server:\n((?:\s+- .+\n)+)/m.exec(yaml)?.[1] ?? '';
  return [...section.matchAll(/^\s+- ([\w-]+)$/gm)].map((m) => m[1]);
}

/** Runs a suite's CLI to its end; the output is stdout and stderr together. */
export function runSuite(node: string, cli: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(node, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (output += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (output += c));
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** One built everything server over HTTP, as a child process. */
export interface EverythingProcess {
  /** Its Streamable HTTP endpoint, as it printed it. */
  readonly url: string;
  readonly child: ChildProcess;
  /** What it wrote on stderr so far. */
  stderr(): string;
  /** SIGTERM, then resolves once it exited. */
  stop(): Promise<void>;
}

/** Starts `main.js --transport http --port 0 --host 127.0.0.1` and the given extra arguments; resolves once it listens. */
export function startEverything(extraArgs: string[] = []): Promise<EverythingProcess> {
  assertServerBuilt({ main: MAIN });
  const child = spawn(process.execPath, [MAIN, '--transport', 'http', '--port', '0', '--host', '127.0.0.1', ...extraArgs], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /Streamable HTTP at (http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (url) resolve({ url, child, stderr: () => stderr, stop });
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${stderr}`)));
  });
}

/** A 0.1.13 `--suite all` run: every scenario of SCENARIOS ran and passed, and the suite exited 0. */
export function expectEverySuiteScenarioPassed(code: number | null, output: string): void {
  const { summary, lines } = summaryOf(output);
  expect(lines.map((l) => l.name).sort()).toEqual([...SCENARIOS].sort());
  expect(lines.filter((l) => !l.ok).map((l) => l.name)).toEqual([]);
  expect(summary).toMatch(/Total: \d+ passed, 0 failed/);
  expect({ code, tail: code === 0 ? '' : output.slice(-4000) }).toEqual({ code: 0, tail: '' });
}

/** One check of a scenario run with `--verbose` (the suite prints them as a JSON array). */
export interface ScenarioCheck {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  readonly errorMessage?: string;
}

/** The checks of a `--scenario <name> --verbose` run's output. */
export function checksOf(output: string): ScenarioCheck[] {
  const start = output.indexOf('\n[');
  const end = output.lastIndexOf('\n]');
  if (start < 0 || end < start) throw new Error(`no checks in the suite's output:\n${output.slice(-2000)}`);
  return (JSON.parse(output.slice(start + 1, end + 2)) as ScenarioCheck[]).map(({ id, status, errorMessage }) => ({
    id,
    status,
    ...(errorMessage ? { errorMessage } : {}),
  }));
}

/** The io.modelcontextprotocol/skills (SEP-2640) server scenarios of 0.2.0-alpha.12, with how many checks each makes. */
export const SKILLS_SCENARIOS = [
  ['sep-2640-skills-enumeration', 32],
  ['sep-2640-skills-manifest', 6],
  ['sep-2640-skills-directory', 7],
] as const;
