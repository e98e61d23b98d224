/** This package's version (also what the CLI's MCP client calls itself). */
export const CLI_VERSION: string = (require('../package.json') as { version: string }).version;
