// Dependency rules (dependency-cruiser, `npm run deps`): no import cycles, and the packages import only downward:
// protocol <- core <- http, gateway, skills, testing, cli; create-typemcp stands alone; apps and bench sit on top. A cycle fails,
// whether through a run-time import or of type-only imports (a cycle of types is still a cycle in the design).
// `@typemcp/*` resolves to packages/*/src.

/** Packages each package's src may import besides itself. */
const MAY_IMPORT = {
  protocol: [],
  core: ['protocol'],
  http: ['protocol'],
  otel: ['protocol'],
  redis: ['protocol', 'http'],
  gateway: ['protocol', 'core'],
  skills: ['protocol', 'core'],
  testing: ['protocol', 'core'],
  apps: ['protocol', 'core'],
  cli: ['protocol', 'core', 'http', 'gateway', 'apps'],
  'create-typemcp': [],
};

const layerRules = Object.entries(MAY_IMPORT).map(([name, allowed]) => ({
  name: `${name}-imports-downward`,
  comment: `packages/${name}/src may import ${allowed.length ? allowed.join(', ') : 'no other @typemcp package'}`,
  severity: 'error',
  from: { path: `^packages/${name}/src/` },
  to: {
    path: '^packages/[^/]+/',
    pathNot: [`^packages/${name}/`, ...allowed.map((below) => `^packages/${below}/src/`)],
    // http augments core's HttpListenOptions (declaration merging): a type-only import, erased at run time.
    ...(name === 'http' ? { dependencyTypesNot: ['type-only'] } : {}),
  },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules in a cycle cannot be understood, tested or loaded one without the other.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-circular-types',
      comment: 'A cycle made of type-only imports: erased at run time, still a tangle in the design.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'packages-not-on-apps',
      comment: 'Apps and benchmarks are built on the packages, never the reverse.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^(apps|bench)/' },
    },
    {
      name: 'apps-apart',
      comment: 'An app does not import another app.',
      severity: 'error',
      from: { path: '^apps/(everything|examples/[^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'src-not-on-tests',
      comment: 'Shipped code never imports test code.',
      severity: 'error',
      from: { path: '/src/' },
      to: { path: '(^|/)test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/|^packages/create-typemcp/templates/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.test.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['require', 'node', 'default'], extensions: ['.ts', '.js', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
