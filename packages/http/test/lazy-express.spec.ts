/**
 * Start-up cost: importing `@typemcp/http` (e.g. for `closeSseStream` in a server that also runs
 * over stdio) loads express and its ~100 modules only with the first app or OAuth proxy, not with
 * the package. Measured on the built package in a fresh process (jest's module registry would hide it).
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const HTTP = path.resolve(__dirname, '../dist/index.js');

const expressModulesAfter = (script: string): number =>
  Number(
    execFileSync(
      process.execPath,
      [
        '-e',
        `${script}; console.log(Object.keys(require.cache).filter((k) => /[\\\\/]node_modules[\\\\/](express|body-parser|router)[\\\\/]/.test(k)).length)`,
      ],
      { encoding: 'utf8' },
    ).trim(),
  );

describe('express loads with the first app or OAuth proxy, not with @typemcp/http', () => {
  it('importing the package loads no express module', () => {
    expect(
      expressModulesAfter(`const http = require(${JSON.stringify(HTTP)}); if (typeof http.closeSseStream !== 'function') throw new Error('no closeSseStream')`),
    ).toBe(0);
  });

  it('an OAuth proxy loads it for its routes (the measure above can see it)', () => {
    const script = `
      const { OAuthProxy } = require(${JSON.stringify(HTTP)});
      const proxy = new OAuthProxy({
        baseUrl: 'http://127.0.0.1:3000',
        upstream: { authorizationEndpoint: 'https://idp.example.test/authorize', tokenEndpoint: 'https://idp.example.test/token', clientId: 'proxy', clientSecret: 's' },
      });
      if (typeof proxy.router !== 'function') throw new Error('no router')`;
    expect(expressModulesAfter(script)).toBeGreaterThan(0);
  });
});
