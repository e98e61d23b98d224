/**
 * Finds the official MCP Inspector a project has: `@modelcontextprotocol/inspector` in its
 * node_modules (a dev dependency), or an `mcp-inspector` command on PATH. Nothing is downloaded:
 * without one, {@link installAdvice} says how to install it.
 */
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

/** The Inspector's package and command names. */
export const INSPECTOR_PACKAGE = '@modelcontextprotocol/inspector';
export const INSPECTOR_BIN = 'mcp-inspector';

/** How to start the Inspector found. */
export interface Inspector {
  command: string;
  /** Arguments before the Inspector's own (its script, when run with node). */
  args: string[];
}

function packageBin(dir: string): Inspector | undefined {
  const manifest = path.join(dir, 'node_modules', ...INSPECTOR_PACKAGE.split('/'), 'package.json');
  if (!existsSync(manifest)) return undefined;
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: string | Record<string, string> };
  const script = typeof bin === 'string' ? bin : (bin?.[INSPECTOR_BIN] ?? Object.values(bin ?? {})[0]);
  return script ? { command: process.execPath, args: [path.join(path.dirname(manifest), script)] } : undefined;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `name` on PATH (with PATHEXT's extensions on Windows). */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const extensions = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const ext of extensions) {
      const file = path.join(dir, name + ext);
      if (isExecutable(file)) return file;
    }
  }
  return undefined;
}

/** The project's Inspector (from `projectDir` up, as Node resolves packages), else the one on PATH. */
export function findInspector(projectDir: string, env: NodeJS.ProcessEnv = process.env): Inspector | undefined {
  for (let dir = path.resolve(projectDir); ; dir = path.dirname(dir)) {
    const found = packageBin(dir);
    if (found) return found;
    if (path.dirname(dir) === dir) break;
  }
  const command = onPath(INSPECTOR_BIN, env);
  return command ? { command, args: [] } : undefined;
}

/** What to do when no Inspector is found, for the Node.js version running (`process.versions.node`). */
export function installAdvice(nodeVersion: string = process.versions.node): string {
  const [major = 0, minor = 0] = nodeVersion.split('.').map(Number);
  const recent = major > 22 || (major === 22 && minor >= 19);
  return [
    `the MCP Inspector is not installed (no ${INSPECTOR_PACKAGE} in node_modules, no ${INSPECTOR_BIN} on PATH); typemcp inspect does not download it.`,
    'Install it as a dev dependency of the project, then run typemcp inspect again:',
    '',
    `  npm install -D ${INSPECTOR_PACKAGE}`,
    '',
    recent
      ? `Inspector 2.x needs Node.js >= 22.19 (this is ${nodeVersion}); on Node.js 20, npm installs 0.15.`
      : major < 22
        ? `On Node.js ${major} (this is ${nodeVersion}) npm installs Inspector 0.15, the last that runs on it; Inspector 2.x needs Node.js >= 22.19.`
        : `On this Node.js (${nodeVersion}) npm installs the newest Inspector that runs on it; Inspector 2.x needs Node.js >= 22.19.`,
  ].join('\n');
}
