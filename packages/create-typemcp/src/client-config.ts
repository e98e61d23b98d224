/** Ready-to-paste MCP client configurations for a generated server. */
import * as path from 'node:path';
import type { Transport } from './options.js';

/** The default address of a generated HTTP server. */
export const DEFAULT_HTTP_URL = 'http://127.0.0.1:3000/mcp';

/** The configurations shown for one project. */
export interface ClientConfigs {
  /** Claude Desktop's `claude_desktop_config.json` (stdio servers only). */
  claudeDesktop?: object;
  /** VS Code's `.vscode/mcp.json`. */
  vscode: object;
  /** The Streamable HTTP endpoint (HTTP servers only). */
  url?: string;
}

/**
 * Configurations for a server named `name` in `projectDir`. A stdio server is started by the
 * client: `node <absolute path>/dist/main.js`. An HTTP server is started by you and reached at its URL.
 */
export function clientConfigs(name: string, projectDir: string, transport: Transport): ClientConfigs {
  const main = path.join(path.resolve(projectDir), 'dist', 'main.js');
  if (transport === 'http') {
    return { vscode: { servers: { [name]: { type: 'http', url: DEFAULT_HTTP_URL } } }, url: DEFAULT_HTTP_URL };
  }
  const stdio = { command: 'node', args: [main] };
  return {
    claudeDesktop: { mcpServers: { [name]: stdio } },
    vscode: { servers: { [name]: { type: 'stdio', ...stdio } } },
    url: transport === 'both' ? DEFAULT_HTTP_URL : undefined,
  };
}

/** JSON as people paste it: two-space indentation. */
export function json(value: object): string {
  return JSON.stringify(value, null, 2);
}
