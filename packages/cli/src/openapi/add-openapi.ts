/**
 * `typemcp add openapi <file-or-url>`: a decorated service with one tool per selected operation of
 * an OpenAPI document, its DTOs, an HTTP client and a test, registered in src/services/index.ts.
 * Run again, it rewrites the DTO file and the service's generated regions (saying so), keeps
 * everything outside those regions, and keeps the client and the test, which are the user's.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadTypeScript, SourceEditor } from '../add/source-editor.js';
import { UsageError } from '../usage.error.js';
import { clientFile, emitDtos, region, serviceFile, serviceRegions, testFile, type ApiNames } from './emit-files.js';
import { loadDocument } from './load-document.js';
import { planOperations, type OperationFilter, type UnmappedOperation } from './operations.js';

/** Options of {@link addOpenApi}. @publicApi */
export interface AddOpenApiOptions extends OperationFilter {
  /** A file (JSON or YAML) or an http(s) URL. */
  readonly source: string;
  /** The service's name (`petstore`: PetstoreService in src/services/petstore.service.ts); default: from the document's title. */
  readonly name?: string;
  /** Validate the document against the OpenAPI schemas first (default true). */
  readonly validate?: boolean;
  /** The project folder. */
  readonly cwd: string;
}

/** What {@link addOpenApi} did. @publicApi */
export interface AddOpenApiResult {
  readonly created: string[];
  readonly changed: string[];
  /** Files left as they were (the user's). */
  readonly kept: string[];
  /** Generated content replaced. */
  readonly overwritten: string[];
  /** How many tools the service has. */
  readonly tools: number;
  /** The selected operations that are not tools, with the reason. */
  readonly unmapped: readonly UnmappedOperation[];
  readonly notes: string[];
}

function apiNames(name: string, source: string): ApiNames {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  if (!words.length || !/^[a-z]/.test(words[0]!)) throw new UsageError(`"${name}" is not a usable name: start with a letter (give one with --name)`);
  return {
    kebab: words.join('-'),
    pascal: words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(''),
    env: words.join('_').toUpperCase(),
    source: path.basename(source),
  };
}

/** `text` with the lines between the markers of region `name` replaced by `content`; throws when the markers are missing. */
function replaceRegion(text: string, name: string, content: string, file: string): string {
  const { open, close } = region(name);
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start < 0 || end < start) throw new UsageError(`${file} has no "${open}" ... "${close}" region to rewrite; restore the markers or move the file away`);
  return `${text.slice(0, text.indexOf('\n', start) + 1)}${content}\n${text.slice(text.lastIndexOf('\n', end) + 1)}`;
}

/** Generates the service; throws a UsageError (nothing written) for a document it cannot read or a name it cannot use. @publicApi */
export async function addOpenApi(options: AddOpenApiOptions): Promise<AddOpenApiResult> {
  const { cwd } = options;
  if (!existsSync(path.join(cwd, 'package.json'))) throw new UsageError(`no package.json in ${cwd}: run typemcp add openapi in the project folder`);
  const doc = await loadDocument(options.source, cwd, options.validate !== false);
  const names = apiNames(options.name ?? doc.info.title, options.source);
  const { planned, unmapped } = planOperations(doc, options);
  if (planned.length === 0) {
    const why = unmapped.length ? `; none can be mapped:\n${unmapped.map((u) => `  ${u.method} ${u.path}: ${u.reason}`).join('\n')}` : '';
    throw new UsageError(`no operation of ${options.source} is selected${why}`);
  }
  const dir = path.join(cwd, 'src', 'services');
  const files = {
    dto: path.join(dir, `${names.kebab}.dto.ts`),
    service: path.join(dir, `${names.kebab}.service.ts`),
    client: path.join(dir, `${names.kebab}.client.ts`),
    test: path.join(cwd, 'test', `${names.kebab}.service.spec.ts`),
  };
  const result: AddOpenApiResult = { created: [], changed: [], kept: [], overwritten: [], tools: planned.length, unmapped, notes: [] };
  const rel = (file: string) => path.relative(cwd, file);
  const write = (file: string, text: string, list: string[]) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    list.push(rel(file));
  };

  const dtos = emitDtos(doc, names, planned);
  const regions = serviceRegions(names, planned, dtos);
  // Everything is prepared before anything is written: a service without markers fails here.
  const service = existsSync(files.service)
    ? replaceRegion(
        replaceRegion(readFileSync(files.service, 'utf8'), 'imports', regions.imports, rel(files.service)),
        'tools',
        regions.tools,
        rel(files.service),
      )
    : undefined;
  if (existsSync(files.dto)) {
    write(files.dto, dtos.text, result.changed);
    result.overwritten.push(rel(files.dto));
  } else write(files.dto, dtos.text, result.created);
  if (service !== undefined) {
    write(files.service, service, result.changed);
    result.overwritten.push(`${rel(files.service)} (its generated regions)`);
  } else write(files.service, serviceFile(doc, names, regions), result.created);
  for (const [file, text] of [
    [files.client, () => clientFile(doc, names)],
    [files.test, () => testFile(names, `../src/services/${names.kebab}.service.js`, planned, dtos.inputs)],
  ] as const) {
    if (existsSync(file)) result.kept.push(rel(file));
    else write(file, text(), result.created);
  }

  const index = path.join(dir, 'index.ts');
  const serviceClass = `${names.pascal}Service`;
  if (existsSync(index) && !readFileSync(index, 'utf8').includes(serviceClass)) {
    const editor = new SourceEditor(loadTypeScript(cwd), index, readFileSync(index, 'utf8'));
    if (editor.appendToArray('services', serviceClass)) {
      editor.ensureImports(`./${names.kebab}.service.js`, [serviceClass]);
      write(index, editor.source, result.changed);
    }
  } else if (!existsSync(index)) {
    result.notes.push(`Register ${serviceClass} with your server: import it from ${rel(files.service)} and add it to createServer({ services })`);
  }
  result.notes.push(
    `Set ${names.env}_BASE_URL (and ${names.env}_TOKEN if the API needs one), or provide ${names.pascal}Client.with({ ... }) to createServer({ providers })`,
  );
  return result;
}
