/**
 * The generated `src/logger.ts`: pino is not loaded when the logger is made (a stdio server is
 * started for every session, and most log nothing), and is made at the first record, its own or a
 * child's, writing what pino writes: JSON lines on stderr at LOG_LEVEL and above (bindings,
 * serialised errors), or pino-pretty's lines with LOG_FORMAT=pretty. The blank project is
 * generated and compiled by tsc, and its compiled logger runs in a node process of its own.
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { makeProject, removeProject, ROOT, runNode } from '../../cli/test/support/project';

let dir: string;
beforeAll(async () => {
  dir = makeProject('blank', 'stdio');
  const built = await runNode(path.join(ROOT, 'node_modules/typescript/bin/tsc'), ['-p', 'tsconfig.build.json'], dir);
  expect(built).toMatchObject({ code: 0 });
  writeFileSync(
    path.join(dir, 'log.js'),
    `const { createLogger } = require('./dist/logger.js');
const pinoLoaded = () => Object.keys(require.cache).some((file) => file.includes('/node_modules/pino/'));
const log = createLogger({ logLevel: 'info', logFormat: process.argv[2] });
const engine = log.child({ component: 'engine' });
process.stdout.write(JSON.stringify({ loadedBeforeARecord: pinoLoaded() }) + '\\n');
engine.warn({ n: 1 }, 'first');
log.debug({ n: 2 }, 'below the level');
log.error({ err: new Error('boom') }, 'second');
engine.child({ tool: 'echo' }).info({ n: 3 }, 'third');
process.stdout.write(JSON.stringify({ loadedAfter: pinoLoaded() }) + '\\n');
`,
  );
}, 60_000);
afterAll(() => removeProject(dir));

it('loads pino at the first record, then writes JSON lines on stderr at the level and above', async () => {
  const ran = await runNode('log.js', ['json'], dir);
  expect(ran.code).toBe(0);
  expect(
    ran.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown),
  ).toEqual([{ loadedBeforeARecord: false }, { loadedAfter: true }]);
  const records = ran.stderr
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(records).toEqual([
    expect.objectContaining({ level: 40, component: 'engine', n: 1, msg: 'first' }),
    expect.objectContaining({
      level: 50,
      err: expect.objectContaining({ type: 'Error', message: 'boom', stack: expect.stringContaining('Error: boom') }),
      msg: 'second',
    }),
    expect.objectContaining({ level: 30, component: 'engine', tool: 'echo', n: 3, msg: 'third' }),
  ]);
  expect(records.map((r) => typeof r.time)).toEqual(['number', 'number', 'number']);
  expect(records[1]).not.toHaveProperty('component');
}, 30_000);

it('writes pino-pretty lines with LOG_FORMAT=pretty', async () => {
  const ran = await runNode('log.js', ['pretty'], dir);
  expect(ran.code).toBe(0);
  const lines = ran.stderr.split('\n').filter((l) => /first|second|third|below/.test(l));
  expect(lines).toEqual([expect.stringMatching(/WARN.*first/), expect.stringMatching(/ERROR.*second/), expect.stringMatching(/INFO.*third/)]);
}, 30_000);
