/**
 * A view's page as the one self-contained HTML file hosts need (they write it into a sandboxed
 * frame without network: a relative URL, a CDN script or a second file loads nothing). The
 * entry is an HTML file whose local `<script src>` and `<link rel="stylesheet" href>` are bundled
 * by esbuild (imports resolved from node_modules, TypeScript and JSX compiled, minified) and
 * inlined, or a script entry (`.ts`, `.tsx`, `.js`, `.jsx`) that gets a minimal page. esbuild is
 * loaded only when a bundle is built; a result is cached by the digest of every input esbuild
 * read, so an unchanged view is not built again.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { AppsError, AppsErrorCode } from './errors.js';

import type { BundleAppOptions, BundledApp } from './bundle.types.js';

interface CacheRecord {
  readonly version: string;
  readonly inputs: Record<string, string>;
  readonly html: string;
  readonly digest: string;
}

type Esbuild = typeof import('esbuild');

const SCRIPT_ENTRY = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const TAG = /<script\b([^>]*)\bsrc\s*=\s*["']([^"']+)["']([^>]*)>\s*<\/script>|<link\b([^>]*)\bhref\s*=\s*["']([^"']+)["']([^>]*)>/gi;
// Everything that would make the page reach out of its frame when written by a host.
const REMOTE = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

function fail(entry: string, problem: string): AppsError {
  return new AppsError(AppsErrorCode.BundleFailed, `bundling the view ${entry}: ${problem}`);
}

/** `</script` and `<!--` cannot end or confuse the inline element they are written into. */
function inlineSafe(code: string, tag: 'script' | 'style'): string {
  return code.replace(new RegExp(`</(${tag})`, 'gi'), '<\\/$1').replace(/<!--/g, '<\\!--');
}

function loadEsbuild(entry: string): Esbuild {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when a view is built
    return require('esbuild') as Esbuild;
  } catch (error) {
    throw fail(entry, `esbuild could not be loaded (${(error as Error).message}); npm install esbuild`);
  }
}

async function build(esbuild: Esbuild, file: string, kind: 'script' | 'style', minify: boolean, entry: string, inputs: Set<string>): Promise<string> {
  let result: import('esbuild').BuildResult<{ write: false; metafile: true }>;
  try {
    result = await esbuild.build({
      entryPoints: [file],
      bundle: true,
      write: false,
      metafile: true,
      minify,
      format: kind === 'script' ? 'esm' : undefined,
      platform: 'browser',
      target: 'es2022',
      charset: 'utf8',
      legalComments: 'none',
      logLevel: 'silent',
      // Assets referenced from code or CSS are inlined: a host's frame loads no second file.
      loader: {
        '.png': 'dataurl',
        '.jpg': 'dataurl',
        '.jpeg': 'dataurl',
        '.gif': 'dataurl',
        '.svg': 'dataurl',
        '.webp': 'dataurl',
        '.woff': 'dataurl',
        '.woff2': 'dataurl',
      },
      absWorkingDir: path.dirname(file),
    });
  } catch (error) {
    const errors = (error as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors;
    const detail = errors?.length
      ? errors.map((e) => (e.location ? `${e.location.file}:${e.location.line}: ${e.text}` : e.text)).join('; ')
      : (error as Error).message;
    throw fail(entry, detail);
  }
  for (const input of Object.keys(result.metafile.inputs)) inputs.add(path.resolve(path.dirname(file), input));
  const out = result.outputFiles.find((f) => f.path.endsWith(kind === 'script' ? '.js' : '.css')) ?? result.outputFiles[0];
  return inlineSafe(out.text, kind);
}

async function bundle(entry: string, minify: boolean): Promise<{ html: string; inputs: string[] }> {
  const esbuild = loadEsbuild(entry);
  const inputs = new Set<string>([entry]);
  if (SCRIPT_ENTRY.test(entry)) {
    const script = await build(esbuild, entry, 'script', minify, entry, inputs);
    const html = `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head><body><div id="root"></div><script type="module">${script}</script></body></html>\n`;
    return { html, inputs: [...inputs] };
  }
  const source = readFileSync(entry, 'utf8');
  const dir = path.dirname(entry);
  const parts: Promise<string>[] = [];
  let last = 0;
  for (const match of source.matchAll(TAG)) {
    const [whole, scriptBefore, scriptSrc, scriptAfter, linkBefore, linkHref, linkAfter] = match;
    const isScript = scriptSrc !== undefined;
    const ref = isScript ? scriptSrc : linkHref;
    const attrs = isScript ? `${scriptBefore}${scriptAfter}` : `${linkBefore}${linkAfter}`;
    if (!isScript && !/\brel\s*=\s*["']?stylesheet/i.test(attrs)) continue;
    if (REMOTE.test(ref))
      throw fail(entry, `${ref} is not a file of the project: a host's frame has no network for it; import the package instead (it is bundled)`);
    const file = path.resolve(dir, ref.split(/[?#]/)[0]);
    if (!existsSync(file)) throw fail(entry, `${ref} does not exist (looked for ${file})`);
    parts.push(Promise.resolve(source.slice(last, match.index)));
    parts.push(
      build(esbuild, file, isScript ? 'script' : 'style', minify, entry, inputs).then((code) =>
        isScript ? `<script type="module">${code}</script>` : `<style>${code}</style>`,
      ),
    );
    last = match.index + whole.length;
  }
  parts.push(Promise.resolve(source.slice(last)));
  const html = (await Promise.all(parts)).join('');
  return { html, inputs: [...inputs] };
}

function cacheFile(dir: string, entry: string, minify: boolean): string {
  return path.join(dir, `${sha256(`${entry}\0${minify}`).slice(0, 24)}.json`);
}

function readCache(file: string, version: string): CacheRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as CacheRecord;
    if (record.version !== version) return undefined;
    for (const [input, digest] of Object.entries(record.inputs)) if (!existsSync(input) || sha256(readFileSync(input)) !== digest) return undefined;
    return record;
  } catch {
    return undefined;
  }
}

/** `bundleApp` itself, loaded (with node:crypto, and esbuild when it builds) only when a view is bundled. */
export async function bundleAppNow(options: BundleAppOptions): Promise<BundledApp> {
  const entry = path.resolve(options.entry);
  if (!existsSync(entry)) throw fail(options.entry, 'the entry does not exist');
  const minify = options.minify ?? true;
  const dir = options.cacheDir === false ? undefined : path.resolve(options.cacheDir ?? path.join('node_modules', '.cache', 'typemcp-apps'));
  const esbuildVersion = (JSON.parse(readFileSync(require.resolve('esbuild/package.json'), 'utf8')) as { version: string }).version;
  const record = dir ? readCache(cacheFile(dir, entry, minify), esbuildVersion) : undefined;
  let result: BundledApp;
  if (record) {
    result = { html: record.html, digest: record.digest, inputs: Object.keys(record.inputs), cached: true };
  } else {
    const { html, inputs } = await bundle(entry, minify);
    result = { html, digest: sha256(html).slice(0, 16), inputs, cached: false };
    if (dir) {
      mkdirSync(dir, { recursive: true });
      const hashes = Object.fromEntries(inputs.map((input) => [input, sha256(readFileSync(input))]));
      writeFileSync(
        cacheFile(dir, entry, minify),
        JSON.stringify({ version: esbuildVersion, inputs: hashes, html, digest: result.digest } satisfies CacheRecord),
      );
    }
  }
  if (options.outFile) {
    const out = path.resolve(options.outFile);
    mkdirSync(path.dirname(out), { recursive: true });
    if (!existsSync(out) || readFileSync(out, 'utf8') !== result.html) writeFileSync(out, result.html);
  }
  return result;
}
