/**
 * The official client (`@modelcontextprotocol/client`, ~200 modules with zod) loads with the first
 * stdio or HTTP mount, never with the package or an in-process mount. Measured on the built
 * packages in a fresh process (jest's module registry would hide it).
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const GATEWAY = path.resolve(__dirname, '../dist/index.js');
const CORE = path.resolve(__dirname, '../../core/dist/index.js');

const clientModulesAfter = (script: string): number =>
  Number(
    execFileSync(
      process.execPath,
      [
        '-e',
        `(async () => { ${script}; console.log(Object.keys(require.cache).filter((k) => /[\\\\/]@modelcontextprotocol[\\\\/]client[\\\\/]/.test(k)).length); process.exit(0); })()`,
      ],
      { encoding: 'utf8' },
    ).trim(),
  );

const servers = `const { createServer } = require(${JSON.stringify(CORE)}); const { mount } = require(${JSON.stringify(GATEWAY)});
  const outer = createServer({ name: 'outer', version: '1', services: [] }); const inner = createServer({ name: 'inner', version: '1', services: [] });`;

describe('the official client loads with the first stdio or HTTP mount only', () => {
  it('an in-process mount loads none of it', () => {
    expect(clientModulesAfter(`${servers} const m = await mount(outer, inner, { namespace: 'inner' }); if (m.state !== 'up') throw new Error(m.state)`)).toBe(
      0,
    );
  });

  it('a stdio mount loads it (the measure above can see it)', () => {
    const script = `${servers} await mount(outer, { command: process.execPath, args: ['-e', 'process.exit(3)'], stderr: 'ignore' }, { required: false, reconnect: false })`;
    expect(clientModulesAfter(script)).toBeGreaterThan(0);
  });
});
