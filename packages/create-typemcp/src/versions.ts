/**
 * Exact versions written into generated projects: those this repository locks (a test checks
 * them against package-lock.json), so a new project builds and tests with the same tools.
 * The @typemcp/* packages are pinned to this generator's own version.
 */

/** Runtime dependencies of every generated project (besides @typemcp/*). */
export const DEPENDENCY_VERSIONS = {
  'class-transformer': '0.5.1',
  'class-validator': '0.15.1',
  pino: '10.4.0',
} as const;

/** Runtime dependencies of the example template: its Database's PostgreSQL client. */
export const EXAMPLE_DEPENDENCY_VERSIONS = {
  pg: '8.23.1',
} as const;

/** Development dependencies of the example template. */
export const EXAMPLE_DEV_DEPENDENCY_VERSIONS = {
  '@types/pg': '8.23.1',
} as const;

/** Development dependencies of the app template: the official App class its view bundles (and that package's peers). */
export const APP_DEV_DEPENDENCY_VERSIONS = {
  '@modelcontextprotocol/ext-apps': '2.0.4',
} as const;

/** Development dependencies of every generated project (besides @typemcp/*). */
export const DEV_DEPENDENCY_VERSIONS = {
  '@swc/core': '1.16.22',
  '@swc/jest': '0.2.39',
  '@types/jest': '30.0.0',
  '@types/node': '20.19.43',
  jest: '30.5.2',
  // LOG_FORMAT=pretty (the default outside production); production logs JSON lines without it.
  'pino-pretty': '13.2.0',
  typescript: '6.0.3',
} as const;

/** Development dependencies of a project protected by the OAuth proxy: a local identity provider to try it (`npm run idp`). */
export const PROXY_DEV_DEPENDENCY_VERSIONS = {
  'oidc-provider': '9.13.3',
} as const;

/**
 * The Node release lines a generated project can target: its `engines` and `@types/node` come
 * from the line of the Node that runs the generator (see {@link nodeLine}), not from Node 20.
 * Node 20's `@types/node` is the one this repository locks; the others are the latest of their
 * major when this table was written.
 */
export const NODE_LINES = {
  20: { engines: '>=20.19', typesNode: DEV_DEPENDENCY_VERSIONS['@types/node'] },
  22: { engines: '>=22.12', typesNode: '22.20.7' },
  24: { engines: '>=24', typesNode: '24.19.4' },
  26: { engines: '>=26', typesNode: '26.6.11' },
} as const;

/** A supported LTS line of {@link NODE_LINES}. */
export type NodeLine = keyof typeof NODE_LINES;

/**
 * The LTS line for a Node version (default: the one running): its major, an odd major falls back
 * to the even one before it (odd majors are never LTS), below 20 is 20 and past 26 is 26.
 */
export function nodeLine(version: string = process.versions.node): NodeLine {
  const major = Number(version.replace(/^v/, '').split('.')[0]);
  const even = major % 2 === 0 ? major : major - 1;
  return Math.min(26, Math.max(20, even)) as NodeLine;
}

/** The version of this generator, which is also the version of the @typemcp/* packages it uses. */
export function generatorVersion(): string {
  return (require('../package.json') as { version: string }).version;
}
