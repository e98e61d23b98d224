/**
 * `typemcp add`: adds a tool, resource or prompt with its DTO and its test, either as a new
 * service (registered in `src/services/index.ts`) or as a method of an existing service.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type * as TS from 'typescript';
import { UsageError } from '../usage.error.js';
import { declaredItems, findTaken } from './declared-names.js';
import { itemNames, uriScheme, type ItemKind } from './names.js';
import { dtoFile, itemCode, serviceFile, testFile, type ItemCode } from './snippets.js';
import { loadTypeScript, SourceEditor } from './source-editor.js';

/** Options of {@link addItem}. @publicApi */
export interface AddOptions {
  kind: ItemKind;
  /** The MCP name (`get_forecast`). */
  name: string;
  /**
   * An existing service to add the method to: a file (`src/services/greeting.service.ts`), a
   * class name (`GreetingService`) or a short name (`greeting`). Default: a new service.
   */
  service?: string;
  /** The project folder (with package.json, src/ and test/). */
  cwd: string;
}

/** What {@link addItem} did: paths relative to the project, and anything the user must do by hand. */
export interface AddResult {
  created: string[];
  changed: string[];
  notes: string[];
}

const SERVICES_DIR = path.join('src', 'services');
const SERVICES_INDEX = path.join(SERVICES_DIR, 'index.ts');
const SERVER_FILE = path.join('src', 'server.ts');

/**
 * The module a test in `testDir` imports the app's server factory from, when the project has
 * one that takes `{ services }` (as create-typemcp writes it): tests then build the server the
 * way main.ts does, with the app's providers.
 */
function appFactory(cwd: string, testDir: string): string | undefined {
  const file = path.join(cwd, SERVER_FILE);
  if (!existsSync(file)) return undefined;
  const factory = /export function createAppServer\(\s*options\b/.test(readFileSync(file, 'utf8'));
  return factory ? moduleSpecifier(testDir, file) : undefined;
}

/** `./x.js` from `from` (a folder) to the source `to` (a .ts file): nodenext import style. */
function moduleSpecifier(from: string, to: string): string {
  const relative = path.relative(from, to).replace(/\\/g, '/').replace(/\.ts$/, '.js');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

function write(file: string, text: string, result: AddResult, cwd: string, created: boolean): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  (created ? result.created : result.changed).push(path.relative(cwd, file));
}

function mustNotExist(file: string, cwd: string): void {
  if (existsSync(file)) throw new UsageError(`${path.relative(cwd, file)} already exists; choose another name or add to it with --service`);
}

function listTs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return entry === 'node_modules' ? [] : listTs(full);
    return entry.endsWith('.ts') && !entry.endsWith('.d.ts') ? [full] : [];
  });
}

/** Refuses an MCP name (or resource URI) that a service under src/ already declares: the server would not start. */
function assertNameFree(ts: typeof TS, options: AddOptions, code: ItemCode): void {
  const taken = findTaken(declaredItems(ts, listTs(path.join(options.cwd, 'src'))), options.kind, options.name, code.uri);
  if (!taken) return;
  const what = taken.name === options.name ? `the ${options.kind} name ${options.name}` : `the resource URI ${code.uri}`;
  throw new UsageError(`${what} is taken by ${taken.origin} (${path.relative(options.cwd, taken.file)}); choose another name`);
}

/** Finds the service's file and class from a path, a class name or a short name. */
function locateService(service: string, cwd: string): { file: string; className?: string } {
  if (service.endsWith('.ts') || service.includes('/') || service.includes('\\')) {
    const file = path.resolve(cwd, service);
    if (!existsSync(file)) throw new UsageError(`--service ${service}: no such file`);
    return { file };
  }
  const short = path.join(cwd, SERVICES_DIR, `${service}.service.ts`);
  if (existsSync(short)) return { file: short };
  const declaring = listTs(path.join(cwd, 'src')).filter((f) => new RegExp(`\\bclass\\s+${service}\\b`).test(readFileSync(f, 'utf8')));
  if (declaring.length === 1) return { file: declaring[0]!, className: service };
  throw new UsageError(
    declaring.length
      ? `--service ${service}: declared in several files (${declaring.map((f) => path.relative(cwd, f)).join(', ')}); give the file`
      : `--service ${service}: no ${path.join(SERVICES_DIR, `${service}.service.ts`)} and no class ${service} under src/`,
  );
}

function readPackageName(cwd: string): string | undefined {
  const file = path.join(cwd, 'package.json');
  if (!existsSync(file)) throw new UsageError(`no package.json in ${cwd}: run typemcp add in the project folder`);
  return (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name;
}

/** A new service file, its DTO file and test, registered in src/services/index.ts. */
function addService(options: AddOptions, code: ItemCode, result: AddResult): void {
  const { cwd } = options;
  const names = itemNames(options.name);
  const service = `${names.pascal}Service`;
  const serviceFileName = path.join(cwd, SERVICES_DIR, `${names.kebab}.service.ts`);
  const dtoFileName = path.join(cwd, SERVICES_DIR, `${names.kebab}.dto.ts`);
  const testFileName = path.join(cwd, 'test', `${names.kebab}.service.spec.ts`);
  for (const f of [serviceFileName, dtoFileName, testFileName]) mustNotExist(f, cwd);
  const ts = loadTypeScript(cwd);
  assertNameFree(ts, options, code);

  write(dtoFileName, dtoFile(code), result, cwd, true);
  write(serviceFileName, serviceFile(service, moduleSpecifier(path.dirname(serviceFileName), dtoFileName), code), result, cwd, true);
  const testDir = path.dirname(testFileName);
  write(testFileName, testFile(service, moduleSpecifier(testDir, serviceFileName), service, code, appFactory(cwd, testDir)), result, cwd, true);

  const index = path.join(cwd, SERVICES_INDEX);
  const editor = existsSync(index) ? new SourceEditor(ts, index, readFileSync(index, 'utf8')) : undefined;
  if (editor?.appendToArray('services', service)) {
    editor.ensureImports(moduleSpecifier(path.dirname(index), serviceFileName), [service]);
    write(index, editor.source, result, cwd, false);
  } else {
    result.notes.push(`Register ${service} with your server: import it from ${path.relative(cwd, serviceFileName)} and add it to createServer({ services })`);
  }
}

/** A method in an existing service, its DTO in the service's DTO file (or a new one), and a new test. */
function addToService(options: AddOptions & { service: string }, code: ItemCode, result: AddResult): void {
  const { cwd } = options;
  const names = itemNames(options.name);
  const ts = loadTypeScript(cwd);
  const located = locateService(options.service, cwd);
  const editor = new SourceEditor(ts, located.file, readFileSync(located.file, 'utf8'));
  const target = editor.findClass(located.className);
  const where = path.relative(cwd, located.file);
  if (!target?.name) throw new UsageError(`${where}: no ${located.className ? `class ${located.className}` : '@McpService() class'} found`);
  const service = target.name.text;
  if (editor.memberNames(target).includes(names.camel)) throw new UsageError(`${service} already has a member named ${names.camel}`);
  assertNameFree(ts, options, code);

  // The DTO goes next to the service's other DTOs: greeting.service.ts -> greeting.dto.ts.
  const siblingDto = located.file.replace(/\.service\.ts$|\.ts$/, '.dto.ts');
  const dtoFileName = existsSync(siblingDto) ? siblingDto : path.join(path.dirname(located.file), `${names.kebab}.dto.ts`);
  const testFileName = path.join(cwd, 'test', `${names.kebab}.${options.kind}.spec.ts`);
  mustNotExist(testFileName, cwd);
  if (existsSync(dtoFileName)) {
    const dto = new SourceEditor(ts, dtoFileName, readFileSync(dtoFileName, 'utf8'));
    if (dto.findClass(code.dto.name)) throw new UsageError(`${path.relative(cwd, dtoFileName)} already declares ${code.dto.name}`);
    dto.ensureImports('@typemcp/core', ['Description']).ensureImports('class-validator', code.validators);
    write(dtoFileName, `${dto.source.trimEnd()}\n\n${code.dto.source}`, result, cwd, false);
  } else {
    write(dtoFileName, dtoFile(code), result, cwd, true);
  }

  editor
    .ensureImports('@typemcp/core', [code.decorator])
    .ensureImports(moduleSpecifier(path.dirname(located.file), dtoFileName), [code.dto.name])
    .appendMember(target, code.method);
  write(located.file, editor.source, result, cwd, false);
  const testDir = path.dirname(testFileName);
  write(testFileName, testFile(service, moduleSpecifier(testDir, located.file), `${service}: ${names.mcp}`, code, appFactory(cwd, testDir)), result, cwd, true);
}

/**
 * Adds the item; throws a UsageError (nothing written) when a name is taken (a file, a class
 * member, or an MCP name another service declares) or the service is not found. @publicApi
 */
export function addItem(options: AddOptions): AddResult {
  const names = itemNames(options.name);
  const code = itemCode(options.kind, names, uriScheme(readPackageName(options.cwd)));
  const result: AddResult = { created: [], changed: [], notes: [] };
  if (options.service) addToService({ ...options, service: options.service }, code, result);
  else addService(options, code, result);
  return result;
}
