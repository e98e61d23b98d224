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

/** The version of this generator, which is also the version of the @typemcp/* packages it uses. */
export function generatorVersion(): string {
  return (require('../package.json') as { version: string }).version;
}
