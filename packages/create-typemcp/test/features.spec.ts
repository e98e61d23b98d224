/** The feature blocks of templates: kept with the feature, dropped without it, nested, negated. */
import { featuresOf, selectFeatures } from '../src/features';

const TEMPLATE = ['a', '// [http]', 'b', '  // [redis]', 'c', '  // [/redis]', '// [/http]', '# [!http]', 'd', '# [/!http]', 'e'].join('\n');

it('keeps the blocks of the features a project has, drops the others, and every mark line', () => {
  expect(selectFeatures(TEMPLATE, new Set(['http', 'redis']))).toBe(['a', 'b', 'c', 'e'].join('\n'));
  expect(selectFeatures(TEMPLATE, new Set(['http']))).toBe(['a', 'b', 'e'].join('\n'));
  expect(selectFeatures(TEMPLATE, new Set())).toBe(['a', 'd', 'e'].join('\n'));
});

it('derives the features from the options', () => {
  expect([...featuresOf({ template: 'example', transport: 'both', auth: 'proxy', redis: true, from: '.' })].sort()).toEqual([
    'both',
    'example',
    'http',
    'proxy',
    'redis',
    'vendor',
  ]);
  expect([...featuresOf({ template: 'blank', transport: 'stdio' })].sort()).toEqual(['blank', 'stdio']);
});
