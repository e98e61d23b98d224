/**
 * class-validator by parts (pipeline/lazy-class-validator.ts): once `@typemcp/core` is imported,
 * `require('class-validator')` loads a decorator's module when the decorator is first read. Run
 * on the built package in fresh processes (jest's module registry would hide Node's), against the
 * real class-validator loaded whole (TYPEMCP_LAZY_CLASS_VALIDATOR=off) as the control.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const CORE = path.resolve(__dirname, '../dist/index.js');
const ROOT = path.resolve(__dirname, '../../..');
const TABLE = path.join(ROOT, 'packages/core/src/pipeline/class-validator-exports.ts');

/** Runs `body` after `prelude` in a fresh node; prints what `report` holds. */
function run(body: string, env: Record<string, string> = {}, prelude = `const core = require(${JSON.stringify(CORE)});`): Record<string, unknown> {
  const script = `
    ${prelude}
    // The index itself is left out: lazily, the module in its place is the lazy one.
    const count = (re) => Object.keys(require.cache).filter((k) => re.test(k) && !/class-validator[\\\\/]cjs[\\\\/]index\\.js$/.test(k)).length;
    const loaded = () => ({
      classValidator: count(/[\\\\/]node_modules[\\\\/]class-validator[\\\\/]/),
      validatorJs: count(/[\\\\/]node_modules[\\\\/]validator[\\\\/]/),
      libphonenumber: count(/[\\\\/]node_modules[\\\\/]libphonenumber-js[\\\\/]/),
    });
    const report = {};
    (async () => {
      ${body}
      console.log(JSON.stringify(report));
    })().catch((e) => { console.error(e); process.exit(1); });`;
  const { TYPEMCP_LAZY_CLASS_VALIDATOR: _ignored, ...inherited } = process.env;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', cwd: __dirname, env: { ...inherited, ...env } })) as Record<
    string,
    unknown
  >;
}

/** Names, and for each the defining module's value compared by identity after everything loaded. */
const SHAPE = `
  const cv = require('class-validator');
  report.keys = Object.keys(cv).sort();
  report.esModule = cv.__esModule;
  report.atFirst = loaded();
  report.isString = typeof cv.IsString;
  report.afterIsString = loaded();
  report.emailValid = cv.isEmail('ada@example.com');
  report.emailInvalid = cv.isEmail('ada');
  report.afterIsEmail = loaded();
  report.sameEmail = cv.IsEmail === require('class-validator/cjs/decorator/string/IsEmail').IsEmail;
  report.sameStorage = cv.getMetadataStorage() === require('class-validator/cjs/metadata/MetadataStorage').getMetadataStorage();
  report.sameAsItself = require('class-validator') === cv;
`;

describe('class-validator loads by parts once @typemcp/core is imported', () => {
  it('its generated table is the one the installed class-validator gives (scripts/class-validator-exports.cjs --check)', () => {
    const checked = spawnSync(process.execPath, [path.join(ROOT, 'scripts/class-validator-exports.cjs'), '--check'], { encoding: 'utf8', cwd: ROOT });
    expect(checked.stderr).toBe('');
    expect(checked.status).toBe(0);
    // The check is a comparison: a table with one name fewer fails it.
    expect(readFileSync(TABLE, 'utf8')).toContain("'decorator/string/IsEmail': ['IS_EMAIL', 'IsEmail', 'isEmail'],");
  });

  it('exports every name of the real index, the same values, loading only the modules read', () => {
    const lazy = run(SHAPE);
    const whole = run(SHAPE, { TYPEMCP_LAZY_CLASS_VALIDATOR: 'off' });
    // The control: class-validator whole, with validator.js and libphonenumber-js.
    expect(whole.atFirst).toMatchObject({ classValidator: expect.any(Number), libphonenumber: expect.any(Number) });
    expect((whole.atFirst as { classValidator: number }).classValidator).toBeGreaterThan(100);
    expect((whole.atFirst as { libphonenumber: number }).libphonenumber).toBeGreaterThan(10);

    expect(lazy.keys).toEqual(whole.keys);
    expect((lazy.keys as string[]).length).toBeGreaterThan(300);
    for (const report of [lazy, whole]) {
      expect(report).toMatchObject({
        esModule: true,
        isString: 'function',
        emailValid: true,
        emailInvalid: false,
        sameEmail: true,
        sameStorage: true,
        sameAsItself: true,
      });
    }
    // Lazily: nothing of validator.js or libphonenumber-js until isEmail is read, then only its part.
    expect(lazy.atFirst).toEqual({ classValidator: 0, validatorJs: 0, libphonenumber: 0 });
    expect(lazy.afterIsString).toMatchObject({ validatorJs: 0, libphonenumber: 0 });
    const afterIsEmail = lazy.afterIsEmail as { classValidator: number; validatorJs: number; libphonenumber: number };
    expect(afterIsEmail.validatorJs).toBeGreaterThan(0);
    expect(afterIsEmail.validatorJs).toBeLessThan(20);
    expect(afterIsEmail.libphonenumber).toBe(0);
    expect(afterIsEmail.classValidator).toBeLessThan(30);
  });

  it("validates a decorated class through the index's own validateSync() and validate(), which load it whole when read", () => {
    const report = run(`
      const cv = require('class-validator');
      const { IsEmail, IsInt, Min } = cv;
      class Signup {}
      IsEmail()(Signup.prototype, 'email');
      IsInt()(Signup.prototype, 'age');
      Min(18)(Signup.prototype, 'age');
      const bad = Object.assign(new Signup(), { email: 'nope', age: 12 });
      const good = Object.assign(new Signup(), { email: 'ada@example.com', age: 36 });
      const names = (errors) => errors.map((e) => e.property + ':' + Object.keys(e.constraints).sort().join(','));
      report.beforeValidate = loaded();
      const { validate, validateSync } = cv;
      report.sync = { bad: names(validateSync(bad)), good: names(validateSync(good)) };
      report.async = names(await validate(bad));
      report.afterValidate = loaded();
      // Assignable, as the real index's own functions are (a test double, say).
      cv.validateSync = () => ['stubbed'];
      report.stubbed = require('class-validator').validateSync(good);
    `);
    expect(report.sync).toEqual({ bad: ['email:isEmail', 'age:min'], good: [] });
    expect(report.async).toEqual(['email:isEmail', 'age:min']);
    expect(report.stubbed).toEqual(['stubbed']);
    expect((report.beforeValidate as { libphonenumber: number }).libphonenumber).toBe(0);
    // validate() and validateSync() are the real index's: reading one loaded it, whole.
    expect((report.afterValidate as { libphonenumber: number }).libphonenumber).toBeGreaterThan(10);
  });

  it('leaves a class-validator loaded before @typemcp/core as it is', () => {
    const report = run(SHAPE, {}, `const early = require('class-validator'); const core = require(${JSON.stringify(CORE)});`);
    expect((report.atFirst as { classValidator: number }).classValidator).toBeGreaterThan(100);
    expect(report).toMatchObject({ sameEmail: true, sameAsItself: true });
  });
});
