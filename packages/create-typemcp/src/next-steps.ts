/** The closing message: what to run next and how to connect a client. */
import * as path from 'node:path';
import { clientConfigs, json } from './client-config.js';
import type { ProjectOptions } from './options.js';

/** Shell quoting for a path shown in a command (only when needed). */
function quote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** A tool call that works on a new project of `template`, as `typemcp call` arguments. */
export function sampleCall(template: ProjectOptions['template']): string {
  if (template === 'app') return `show_counter --args '{"start":1}'`;
  return template === 'example' ? `greet --args '{"name":"Ada"}'` : `echo --args '{"text":"hello"}'`;
}

/**
 * The text printed once the project is ready: the next commands (from the current directory,
 * with the directory as it was given) and client configurations with absolute paths.
 */
export function nextSteps(options: ProjectOptions, cwd: string = process.cwd()): string {
  const dir = path.resolve(cwd, options.directory);
  const commands = [
    ...(dir === path.resolve(cwd) ? [] : [`cd ${quote(options.directory)}`]),
    ...(options.install ? [] : ['npm install']),
    `npm run dev        # run src/main.ts, restart on change${options.template === 'app' ? '; preview the app at http://127.0.0.1:6280/' : ''}`,
    'npm test           # the service tests, in memory',
    'npm run build      # compile to dist/ (clients run dist/main.js)',
  ];
  const configs = clientConfigs(options.name, dir, options.transport);
  const lines = [`Created ${options.name} in ${dir}`, '', 'Next:', ...commands.map((c) => `  ${c}`), ''];
  if (configs.claudeDesktop) {
    lines.push('Claude Desktop (claude_desktop_config.json), after `npm run build`:', json(configs.claudeDesktop), '');
  }
  lines.push('VS Code (.vscode/mcp.json):', json(configs.vscode), '');
  if (configs.url) {
    const start = options.transport === 'both' ? 'npm run start:http' : 'npm start';
    lines.push(`Over HTTP: \`${start}\` serves ${configs.url}`, '');
    if (options.auth === 'proxy') {
      lines.push('Protected with OAuth: set OAUTH_ISSUER, OAUTH_CLIENT_ID and OAUTH_CLIENT_SECRET (`npm run idp` starts a local provider; see README.md).', '');
    }
  }
  const target = options.transport === 'http' ? ` --url ${configs.url}` : '';
  const when = options.transport === 'http' ? 'after `npm run build`, with `npm start` running in another terminal' : 'after `npm run build`';
  lines.push(`From a terminal (${when}):`, `  npx typemcp list${target}`, `  npx typemcp call ${sampleCall(options.template)}${target}`);
  return lines.join('\n');
}
