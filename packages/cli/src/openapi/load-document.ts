/**
 * Reads an OpenAPI 3.0 or 3.1 document (a file or an http(s) URL; JSON or YAML, with the `yaml`
 * package), validates it against the specification's schemas and resolves its `$ref`s with
 * @readme/openapi-parser (loaded here, by `typemcp add openapi` only).
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { UsageError } from '../usage.error.js';

/** The parts of a dereferenced document the generator reads. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version?: string; description?: string };
  servers?: { url: string; variables?: Record<string, { default: string }> }[];
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, SecurityScheme> };
}

/** A security scheme, as far as the generated client supports one. */
export interface SecurityScheme {
  type: string;
  scheme?: string;
  in?: string;
  name?: string;
}

const MAX_BYTES = 64 * 1024 * 1024;

async function download(url: URL): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000), redirect: 'follow' });
  if (!res.ok) throw new UsageError(`${url.href} answered ${res.status} ${res.statusText}`);
  const size = Number(res.headers.get('content-length') ?? 0);
  if (size > MAX_BYTES) throw new UsageError(`${url.href} is larger than ${MAX_BYTES >> 20} MiB`);
  const text = await res.text();
  if (text.length > MAX_BYTES) throw new UsageError(`${url.href} is larger than ${MAX_BYTES >> 20} MiB`);
  return text;
}

function parseText(text: string, where: string): unknown {
  const trimmed = text.trimStart();
  try {
    if (trimmed.startsWith('{')) return JSON.parse(text);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded by `typemcp add openapi` only
    const { parse } = require('yaml') as typeof import('yaml');
    return parse(text, { maxAliasCount: 1000 });
  } catch (error) {
    throw new UsageError(`${where} is neither JSON nor YAML: ${(error as Error).message}`);
  }
}

/** The document at `source`, validated (unless `validate` is false) and dereferenced. */
export async function loadDocument(source: string, cwd: string, validate = true): Promise<OpenApiDocument> {
  const isUrl = /^https?:\/\//i.test(source);
  let text: string;
  try {
    text = isUrl ? await download(new URL(source)) : readFileSync(path.resolve(cwd, source), 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${source}: ${(error as Error).message}`);
  }
  const doc = parseText(text, source) as Partial<OpenApiDocument> | null;
  const version = typeof doc?.openapi === 'string' ? doc.openapi : undefined;
  if (!version || !/^3\.[01]\./.test(version)) {
    const found = version ?? ((doc as { swagger?: string } | null)?.swagger ? `Swagger ${(doc as { swagger: string }).swagger}` : 'no "openapi" field');
    throw new UsageError(`${source}: typemcp add openapi reads OpenAPI 3.0 and 3.1 documents (found ${found}); convert Swagger 2.0 with a converter first`);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded by `typemcp add openapi` only
  const parser = require('@readme/openapi-parser') as typeof import('@readme/openapi-parser');
  if (validate) {
    const result = await parser.validate(structuredClone(doc) as never);
    if (!result.valid) throw new UsageError(`${source} is not a valid OpenAPI ${version} document:\n${parser.compileErrors(result)}`);
  }
  // References within the document only: a file or URL it names is not fetched.
  return (await parser.dereference(doc as never, { resolve: { external: false } })) as unknown as OpenApiDocument;
}
