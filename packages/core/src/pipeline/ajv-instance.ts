/**
 * The one Ajv factory: the validator (dto-validator.ts) compiles with it at run time, and
 * `typemcp build` (precompiled-validators.ts) compiles the manifest's schemas with it to standalone
 * code, so both run with the same options and give the same errors.
 */
import type Ajv2020 from 'ajv/dist/2020';

/**
 * Ajv as the schemas need it: 2020-12, every fault reported (one message each), the offending
 * value kept for the message, regexes read as the DTO's own JavaScript regexes (no `u` flag),
 * only finite numbers, and the standard formats. The output instance also removes what a closed
 * schema does not name. `source`: keep each validator's source, for standalone code (a build
 * option only: it changes nothing the validator does).
 */
export function newAjv(removeAdditional: boolean, source = false): Ajv2020 {
  // Loaded on the first check, not at start-up: Ajv and its formats take about 50 ms to load, and
  // a stdio server is started anew for every client session.
  /* eslint-disable @typescript-eslint/no-require-imports -- a deferred load */
  const Ajv = (require('ajv/dist/2020') as typeof import('ajv/dist/2020')).default;
  const addFormats = (require('ajv-formats') as typeof import('ajv-formats')).default;
  /* eslint-enable @typescript-eslint/no-require-imports */
  // `strictNumbers`: a declared number is refused when it is not finite (JSON.parse reads `1e400` as Infinity).
  // `validateSchema: false`: the schemas are our own derivations, and checking them against the
  // 2020-12 meta-schema compiled that meta-schema in every instance, about half of a bundled start.
  // `code.esm: false`: standalone code is CommonJS (precompiled-validators.ts wraps it).
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    strict: false,
    strictNumbers: true,
    unicodeRegExp: false,
    validateSchema: false,
    removeAdditional,
    code: { source, esm: false },
  });
  addFormats(ajv);
  return ajv;
}
