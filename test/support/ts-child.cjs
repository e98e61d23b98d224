// Preloaded into test child processes (`node -r test/support/ts-child.cjs fixture.ts`): compiles
// each required .ts file with @swc/core, with the options jest.config.ts uses (legacy decorators
// and their metadata), so a fixture is written like application code. @typemcp/* resolve to the
// built packages (npx tsc -b), as in an installed project.
const { transformSync } = require('@swc/core');
const fs = require('node:fs');

const OPTIONS = {
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { ...OPTIONS, filename });
  module._compile(code, filename);
};
