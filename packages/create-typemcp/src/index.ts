/**
 * create-typemcp: generates a TypeMCP server project. The command is `create-typemcp`
 * (`npm create typemcp@latest`); the functions below are the same steps for programs and tests.
 */
export { parseFlags, type Flags, type ParsedArgs } from './args.js';
export { clientConfigs, type ClientConfigs } from './client-config.js';
export { createProject, type CreatedProject } from './create-project.js';
export { nextSteps } from './next-steps.js';
export { AUTHS, DEFAULTS, TEMPLATES, TRANSPORTS, type Auth, type ProjectOptions, type Template, type Transport } from './options.js';
export { buildPackageJson, type GeneratedPackageJson, type PackageSources, type TypeMcpPackage } from './package-json.js';
export type { Output } from './progress.js';
export { CancelledError, resolveOptions, withDefaults } from './questions.js';
export { run, type RunIo } from './run.js';
export { DEPENDENCY_VERSIONS, DEV_DEPENDENCY_VERSIONS, generatorVersion } from './versions.js';
