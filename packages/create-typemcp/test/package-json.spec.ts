/** The generated package.json: pinned versions (those this repository locks), scripts and `--from` sources. */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { buildPackageJson, DEPENDENCY_VERSIONS, DEV_DEPENDENCY_VERSIONS, generatorVersion, type PackageSources } from '../src/index';
import {
  APP_DEV_DEPENDENCY_VERSIONS,
  EXAMPLE_DEPENDENCY_VERSIONS,
  EXAMPLE_DEV_DEPENDENCY_VERSIONS,
  NODE_LINES,
  nodeLine,
  PROXY_DEV_DEPENDENCY_VERSIONS,
} from '../src/versions';

const registry: PackageSources = {
  protocol: '0.1.0',
  core: '0.1.0',
  apps: '0.1.0',
  http: '0.1.0',
  redis: '0.1.0',
  gateway: '0.1.0',
  skills: '0.1.0',
  testing: '0.1.0',
  cli: '0.1.0',
};

it('pins exactly the versions package-lock.json holds for this repository', () => {
  const lock = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
  for (const [name, version] of Object.entries({
    ...DEPENDENCY_VERSIONS,
    ...DEV_DEPENDENCY_VERSIONS,
    ...PROXY_DEV_DEPENDENCY_VERSIONS,
    ...EXAMPLE_DEPENDENCY_VERSIONS,
    ...EXAMPLE_DEV_DEPENDENCY_VERSIONS,
    ...APP_DEV_DEPENDENCY_VERSIONS,
  })) {
    expect(`${name}@${lock.packages[`node_modules/${name}`]?.version}`).toBe(`${name}@${version}`);
  }
  expect(generatorVersion()).toBe(require('../../core/package.json').version);
});

it('denies the install scripts this repository denies (npm 11 warns about each one not covered)', () => {
  const root = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { allowScripts: Record<string, boolean> };
  expect(buildPackageJson({ name: 'a', transport: 'stdio' }, registry).allowScripts).toEqual(root.allowScripts);
});

it('depends on @typemcp/http only when HTTP is served, and adds dev:http for both', () => {
  const stdio = buildPackageJson({ name: 'a', transport: 'stdio' }, registry);
  expect(Object.keys(stdio.dependencies)).toEqual(['@typemcp/core', 'class-transformer', 'class-validator', 'pino']);
  expect(stdio.devDependencies).toMatchObject({ '@typemcp/cli': '0.1.0', '@typemcp/testing': '0.1.0', typescript: '6.0.3', jest: '30.5.2' });
  expect(stdio.scripts).toEqual({
    dev: 'typemcp dev',
    build: 'tsc -p tsconfig.build.json && typemcp build',
    start: 'node dist/main.js',
    test: 'jest',
    typecheck: 'tsc',
  });
  expect(stdio.overrides).toBeUndefined();
  const both = buildPackageJson({ name: 'a', transport: 'both' }, registry);
  expect(both.dependencies['@typemcp/http']).toBe('0.1.0');
  expect(both.scripts).toMatchObject({ 'dev:http': 'typemcp dev src/main.ts --transport http', 'start:http': 'node dist/main.js --transport http' });
});

it('builds the schema manifest after compiling, except for an HTTP-only server behind the OAuth proxy (it needs its provider to start)', () => {
  expect(buildPackageJson({ name: 'a', transport: 'http' }, registry).scripts.build).toBe('tsc -p tsconfig.build.json && typemcp build');
  expect(buildPackageJson({ name: 'a', transport: 'both', auth: 'proxy' }, registry).scripts.build).toBe('tsc -p tsconfig.build.json && typemcp build');
  expect(buildPackageJson({ name: 'a', transport: 'http', auth: 'proxy' }, registry).scripts.build).toBe('tsc -p tsconfig.build.json');
});

it('points every @typemcp/* package, direct or not, at the vendored tarballs with --from', () => {
  const file = (n: string) => `file:vendor/typemcp-${n}-0.1.0.tgz`;
  const sources = {
    protocol: file('protocol'),
    core: file('core'),
    apps: file('apps'),
    http: file('http'),
    redis: file('redis'),
    gateway: file('gateway'),
    skills: file('skills'),
    testing: file('testing'),
    cli: file('cli'),
  };
  const pkg = buildPackageJson({ name: 'a', transport: 'http' }, sources);
  expect(pkg.dependencies['@typemcp/core']).toBe(file('core'));
  // @typemcp/apps only where the project uses it: elsewhere it is an optional peer of the CLI,
  // and npm 11 never finishes on a file: override of a package it reaches only as a peer.
  expect(pkg.overrides).toEqual({
    '@typemcp/protocol': file('protocol'),
    '@typemcp/core': file('core'),
    '@typemcp/http': file('http'),
    '@typemcp/redis': file('redis'),
    '@typemcp/gateway': file('gateway'),
    '@typemcp/skills': file('skills'),
    '@typemcp/testing': file('testing'),
    '@typemcp/cli': file('cli'),
  });
  expect(pkg.devDependencies['@typemcp/http']).toBeUndefined();
  // A stdio project reaches @typemcp/http only as core's peer (and the CLI's dependency): it gets a
  // direct edge, without which npm 11 retried the tarball forever (generate.e2e installs one).
  const stdio = buildPackageJson({ name: 'a', transport: 'stdio' }, sources);
  expect(stdio.dependencies['@typemcp/http']).toBeUndefined();
  expect(stdio.devDependencies['@typemcp/http']).toBe(file('http'));
  expect(buildPackageJson({ name: 'a', transport: 'stdio' }, registry).devDependencies['@typemcp/http']).toBeUndefined();
  const app = buildPackageJson({ name: 'a', transport: 'http', template: 'app' }, sources);
  expect(app.dependencies['@typemcp/apps']).toBe(file('apps'));
  expect(app.overrides?.['@typemcp/apps']).toBe(file('apps'));
});

it('adds a local identity provider (oidc-provider, `npm run idp`) only to a project protected by the OAuth proxy', () => {
  const open = buildPackageJson({ name: 'a', transport: 'http', auth: 'none' }, registry);
  expect(open.devDependencies['oidc-provider']).toBeUndefined();
  expect(open.scripts.idp).toBeUndefined();
  const proxied = buildPackageJson({ name: 'a', transport: 'http', auth: 'proxy' }, registry);
  expect(proxied.devDependencies['oidc-provider']).toBe(PROXY_DEV_DEPENDENCY_VERSIONS['oidc-provider']);
  expect(proxied.scripts.idp).toBe('node scripts/dev-idp.mjs');
  expect(proxied.dependencies['@typemcp/http']).toBe('0.1.0');
});

it('adds the PostgreSQL client (its Database) and @typemcp/skills (its skills folder) to the example, and @typemcp/redis with --redis', () => {
  const example = buildPackageJson({ name: 'a', transport: 'http', template: 'example' }, registry);
  expect(example.dependencies).toMatchObject({ pg: EXAMPLE_DEPENDENCY_VERSIONS.pg, pino: DEPENDENCY_VERSIONS.pino, '@typemcp/skills': '0.1.0' });
  expect(example.devDependencies).toMatchObject({
    '@types/pg': EXAMPLE_DEV_DEPENDENCY_VERSIONS['@types/pg'],
    'pino-pretty': DEV_DEPENDENCY_VERSIONS['pino-pretty'],
  });
  expect(example.dependencies['@typemcp/redis']).toBeUndefined();
  const blank = buildPackageJson({ name: 'a', transport: 'http', template: 'blank', redis: true }, registry);
  expect(blank.dependencies.pg).toBeUndefined();
  expect(blank.dependencies['@typemcp/skills']).toBeUndefined();
  expect(blank.dependencies['@typemcp/redis']).toBe('0.1.0');
});

it("adds @typemcp/apps, the official App class its view bundles and the views' type-check to the app template only", () => {
  const app = buildPackageJson({ name: 'a', transport: 'http', template: 'app' }, registry);
  expect(app.dependencies['@typemcp/apps']).toBe('0.1.0');
  expect(app.devDependencies['@modelcontextprotocol/ext-apps']).toBe(APP_DEV_DEPENDENCY_VERSIONS['@modelcontextprotocol/ext-apps']);
  expect(app.scripts.typecheck).toBe('tsc && tsc -p tsconfig.views.json');
  expect(app.scripts.build).toBe('tsc -p tsconfig.build.json && typemcp build');
  const blank = buildPackageJson({ name: 'a', transport: 'http', template: 'blank' }, registry);
  expect(blank.dependencies['@typemcp/apps']).toBeUndefined();
  expect(blank.devDependencies['@modelcontextprotocol/ext-apps']).toBeUndefined();
  expect(blank.scripts.typecheck).toBe('tsc');
});

it('takes engines and @types/node from the LTS line of the Node running the generator (an odd major: the even one before it)', () => {
  expect(['18.20.0', '20.19.0', '21.7.3', '22.12.0', '23.11.1', 'v24.1.0', '25.0.0', '26.12.1', '27.0.0'].map((v) => nodeLine(v))).toEqual([
    20, 20, 20, 22, 22, 24, 24, 26, 26,
  ]);
  for (const [version, engines] of [
    ['20.20.2', '>=20.19'],
    ['22.23.5', '>=22.12'],
    ['24.22.3', '>=24'],
    ['26.12.1', '>=26'],
  ] as const) {
    const pkg = buildPackageJson({ name: 'a', transport: 'stdio' }, registry, version);
    expect(pkg.engines.node).toBe(engines);
    expect(pkg.devDependencies['@types/node']).toBe(NODE_LINES[nodeLine(version)].typesNode);
    expect(pkg.devDependencies['@types/node'].split('.')[0]).toBe(String(nodeLine(version)));
  }
  // Without a version: the Node running this test.
  expect(buildPackageJson({ name: 'a', transport: 'stdio' }, registry).engines.node).toBe(NODE_LINES[nodeLine(process.versions.node)].engines);
});
