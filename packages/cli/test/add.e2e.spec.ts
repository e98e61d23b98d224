/**
 * `typemcp add` on a freshly generated project, run as the built command: the code it writes
 * type-checks (tsc on sources and tests) and the tests it writes pass (Jest with the project's
 * own config).
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { jest, makeProject, removeProject, typecheck, typemcp } from './support/project';

/** Every file of the project but node_modules, with its content. */
function listFiles(dir: string): Record<string, string> {
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true }).filter(
    (e) => e.isFile() && !path.join(e.parentPath, e.name).includes('node_modules'),
  );
  return Object.fromEntries(entries.map((e) => [path.relative(dir, path.join(e.parentPath, e.name)), readFileSync(path.join(e.parentPath, e.name), 'utf8')]));
}

describe('typemcp add', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeProject('example');
  });
  afterAll(() => removeProject(dir));

  it('adds a tool as a new service, a resource and a prompt to existing ones; all compile and their tests pass', async () => {
    const tool = await typemcp(['add', 'tool', 'get_forecast'], dir);
    expect(tool).toMatchObject({ code: 0, stderr: '' });
    expect(tool.stdout.split('\n').filter(Boolean)).toEqual([
      'created  src/services/get-forecast.dto.ts',
      'created  src/services/get-forecast.service.ts',
      'created  test/get-forecast.service.spec.ts',
      'updated  src/services/index.ts',
    ]);
    expect(readFileSync(path.join(dir, 'src/services/index.ts'), 'utf8')).toContain('[GreetingService, StatusService, GetForecastService]');

    expect((await typemcp(['add', 'resource', 'forecast', '--service', 'GreetingService'], dir)).code).toBe(0);
    expect((await typemcp(['add', 'prompt', 'summarise', '--service', 'src/services/greeting.service.ts'], dir)).code).toBe(0);
    const service = readFileSync(path.join(dir, 'src/services/greeting.service.ts'), 'utf8');
    expect(service).toContain(
      "import { GreetInput, LANGUAGES, PhraseParams, WelcomeArgs, type Language, ForecastParams, SummariseArgs } from './greeting.dto.js';",
    );
    expect(service).toMatch(/\n {2}}\n\n {2}@Resource\('app:\/\/forecast\/\{id\}'/);
    expect(service.endsWith('    return `Write a short note about ${args.topic}.`;\n  }\n}\n')).toBe(true);

    const checked = await typecheck(dir);
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.code).toBe(0);
    const tested = await jest(dir);
    expect(tested.stderr).toMatch(/Tests:\s+16 passed, 16 total/);
    expect(tested.code).toBe(0);
  }, 60_000);

  it('refuses a name that is taken, a service it cannot find and a bad name, writing nothing', async () => {
    expect(await typemcp(['add', 'tool', 'greet', '--service', 'greeting'], dir)).toMatchObject({
      code: 2,
      stderr: 'typemcp: GreetingService already has a member named greet\n',
    });
    expect(await typemcp(['add', 'tool', 'x', '--service', 'NoSuchService'], dir)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('no src/services/NoSuchService.service.ts and no class NoSuchService under src/'),
    });
    expect((await typemcp(['add', 'tool', '9lives'], dir)).stderr).toContain('"9lives" is not a usable name');
    // MCP names already served: the server would refuse to start (TYPEMCP_ERR_DUPLICATE_TOOL...).
    const before = listFiles(dir);
    expect(await typemcp(['add', 'tool', 'greet'], dir)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'typemcp: the tool name greet is taken by GreetingService.greet (src/services/greeting.service.ts); choose another name\n',
    });
    expect(await typemcp(['add', 'prompt', 'welcome_message', '--service', 'GreetingService'], dir)).toMatchObject({
      code: 2,
      stderr: 'typemcp: the prompt name welcome_message is taken by GreetingService.welcome (src/services/greeting.service.ts); choose another name\n',
    });
    expect(await typemcp(['add', 'resource', 'greeting-phrase'], dir)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('the resource name greeting-phrase is taken by GreetingService.phrase'),
    });
    expect(listFiles(dir)).toEqual(before);
    expect(await typemcp(['add', 'widget', 'x'], dir)).toMatchObject({
      code: 2,
      stderr:
        "error: command-argument value 'widget' is invalid for argument 'kind'. Allowed choices are tool, resource, prompt, skill, openapi.\n(typemcp <command> --help shows a command's usage)\n",
    });
  }, 60_000);
});
