/** The generated project's package.json. */
import type { ProjectOptions } from './options.js';
import {
  NODE_LINES,
  nodeLine,
  DEPENDENCY_VERSIONS,
  DEV_DEPENDENCY_VERSIONS,
  EXAMPLE_DEPENDENCY_VERSIONS,
  EXAMPLE_DEV_DEPENDENCY_VERSIONS,
  APP_DEV_DEPENDENCY_VERSIONS,
  PROXY_DEV_DEPENDENCY_VERSIONS,
} from './versions.js';

/** The @typemcp/* packages a generated project may use. */
export type TypeMcpPackage = 'protocol' | 'core' | 'apps' | 'http' | 'redis' | 'gateway' | 'skills' | 'testing' | 'cli';

/** Where each @typemcp/* package comes from: a version, or a `file:` tarball (see `--from`). */
export type PackageSources = Record<TypeMcpPackage, string>;

/** The generated project's package.json, as an object. */
export interface GeneratedPackageJson {
  name: string;
  version: string;
  private: true;
  description: string;
  main: string;
  scripts: Record<string, string>;
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  overrides?: Record<string, string>;
  allowScripts: Record<string, boolean>;
}

/**
 * npm's `allowScripts` (npm 11 warns about every install script it does not cover): neither
 * script is needed. @swc/core's postinstall only checks its native binary, which comes as an
 * optional dependency (and else installs @swc/wasm from the network); @parcel/watcher's (Jest's
 * file watcher) builds from source only when asked to, its prebuilt binaries also come as optional
 * dependencies; esbuild's (the app template's bundler, through @typemcp/apps) only checks the native
 * binary that comes as an optional dependency.
 */
export const ALLOW_SCRIPTS = { '@parcel/watcher': false, '@swc/core': false, esbuild: false } as const;

function sorted(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

function scriptsFor(transport: ProjectOptions['transport'], auth: ProjectOptions['auth'], template?: ProjectOptions['template']): Record<string, string> {
  // `typemcp build` runs the compiled entry up to listen() to write dist/typemcp.manifest.json (the
  // DTO schemas, read at start-up instead of derived). An HTTP-only server behind the OAuth proxy
  // needs its provider's settings to get there, so it derives its schemas at start-up.
  const manifest = transport === 'http' && auth === 'proxy' ? '' : ' && typemcp build';
  const scripts: Record<string, string> = {
    dev: 'typemcp dev',
    build: `tsc -p tsconfig.build.json${manifest}`,
    start: 'node dist/main.js',
    test: 'jest',
    // The app template's views are browser code, checked with the DOM (tsconfig.views.json).
    typecheck: template === 'app' ? 'tsc && tsc -p tsconfig.views.json' : 'tsc',
  };
  if (transport === 'both') {
    scripts['dev:http'] = 'typemcp dev src/main.ts --transport http';
    scripts['start:http'] = 'node dist/main.js --transport http';
  }
  if (auth === 'proxy') scripts.idp = 'node scripts/dev-idp.mjs';
  return scripts;
}

/**
 * The package.json of a new project. With `file:` sources (from `--from`), `overrides` make the
 * @typemcp/* packages' own dependencies on each other use the same tarballs.
 */
export function buildPackageJson(
  options: Pick<ProjectOptions, 'name' | 'transport'> & Partial<Pick<ProjectOptions, 'auth' | 'template' | 'redis'>>,
  sources: PackageSources,
  nodeVersion: string = process.versions.node,
): GeneratedPackageJson {
  const auth = options.auth ?? 'none';
  // The Node line running the generator (an LTS): the project's engines and @types/node.
  const line = nodeLine(nodeVersion);
  const dependencies: Record<string, string> = { ...DEPENDENCY_VERSIONS, '@typemcp/core': sources.core };
  if (options.transport !== 'stdio') dependencies['@typemcp/http'] = sources.http;
  if (options.redis) dependencies['@typemcp/redis'] = sources.redis;
  // The example's Database holds a PostgreSQL pool (used only when DATABASE_URL is set); its skills folder is served by @typemcp/skills.
  if (options.template === 'example') Object.assign(dependencies, EXAMPLE_DEPENDENCY_VERSIONS, { '@typemcp/skills': sources.skills });
  // MCP Apps: the extension and its bundler (esbuild); the view's App class is bundled, a build-time dependency.
  if (options.template === 'app') dependencies['@typemcp/apps'] = sources.apps;
  const pkg: GeneratedPackageJson = {
    name: options.name,
    version: '0.1.0',
    private: true,
    description: 'An MCP server built with TypeMCP',
    main: 'dist/main.js',
    scripts: scriptsFor(options.transport, auth, options.template),
    engines: { node: NODE_LINES[line].engines },
    dependencies: sorted(dependencies),
    devDependencies: sorted({
      ...DEV_DEPENDENCY_VERSIONS,
      '@types/node': NODE_LINES[line].typesNode,
      ...(options.template === 'example' ? EXAMPLE_DEV_DEPENDENCY_VERSIONS : {}),
      ...(options.template === 'app' ? APP_DEV_DEPENDENCY_VERSIONS : {}),
      ...(auth === 'proxy' ? PROXY_DEV_DEPENDENCY_VERSIONS : {}),
      '@typemcp/cli': sources.cli,
      '@typemcp/testing': sources.testing,
    }),
    allowScripts: { ...ALLOW_SCRIPTS },
  };
  if (Object.values(sources).some((s) => s.startsWith('file:'))) {
    pkg.overrides = Object.fromEntries(Object.entries(sources).map(([name, source]) => [`@typemcp/${name}`, source]));
    // npm 11 never finishes resolving an override with a `file:` spec for a package the project
    // reaches only as a peer (core's optional peer @typemcp/http, which the CLI installs anyway):
    // it retries the tarball forever ("seems to be corrupted. Trying again"). A direct edge avoids it.
    if (!dependencies['@typemcp/http']) pkg.devDependencies = sorted({ ...pkg.devDependencies, '@typemcp/http': sources.http });
    // @typemcp/apps is only an optional peer of the CLI unless the project uses it: an override
    // for it would be the same trap, for a package the project never installs.
    if (!dependencies['@typemcp/apps']) delete pkg.overrides['@typemcp/apps'];
  }
  return pkg;
}
