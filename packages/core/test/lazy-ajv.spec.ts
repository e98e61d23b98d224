/**
 * Start-up cost: `@typemcp/core` loads Ajv (about 50 ms with its formats) on the first check of a
 * DTO, not when it is imported, since a stdio server is started anew for every client session.
 * Measured on the built package in a fresh process (jest's module registry would hide it).
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const CORE = path.resolve(__dirname, '../dist/index.js');

const ajvModulesAfter = (script: string): number =>
  Number(
    execFileSync(process.execPath, ['-e', `${script}; console.log(Object.keys(require.cache).filter((k) => /[\\\\/]ajv(-formats)?[\\\\/]/.test(k)).length)`], {
      encoding: 'utf8',
    }).trim(),
  );

describe('Ajv is loaded when the first DTO is checked, not at import', () => {
  it('importing @typemcp/core and building a server loads no Ajv module', () => {
    expect(ajvModulesAfter(`const core = require(${JSON.stringify(CORE)}); core.createServer({ name: 'n', version: '1', services: [] })`)).toBe(0);
  });

  it('the first input check loads it (the measure above can see it)', () => {
    const script = `
      const core = require(${JSON.stringify(CORE)});
      const { DtoValidator } = require(${JSON.stringify(path.resolve(__dirname, '../dist/pipeline/dto-validator.js'))});
      class Empty {}
      new DtoValidator(new core.DtoSchemaFactory()).input(Empty, {});`;
    expect(ajvModulesAfter(script)).toBeGreaterThan(0);
  });
});
