/**
 * bundleApp and the apps step of `typemcp build` on real files with the real esbuild: one
 * self-contained HTML (imports from node_modules, TypeScript, CSS inlined), nothing a host frame
 * would have to fetch, `</script` unable to end the inline script early, the cache answering for
 * unchanged inputs and the digest changing with any of them, and precise errors. (`typemcp
 * build`'s apps step: packages/cli/test/build-apps.spec.ts.)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { runInNewContext } from 'node:vm';
import { AppsErrorCode, bundleApp } from '@typemcp/apps';

let dir: string;
let cache: string;
beforeEach(() => {
  // Inside the repository, so that the entries' imports resolve from its node_modules.
  dir = mkdtempSync(path.join(__dirname, '.tmp-bundle-'));
  cache = path.join(dir, 'cache');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(file: string, text: string): string {
  const full = path.join(dir, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
  return full;
}

const PAGE = `<!DOCTYPE html><html><head><link rel="stylesheet" href="./view.css"></head>
<body><p id="out"></p><script type="module" src="./view.ts"></script></body></html>`;

function project(): string {
  write('view.css', '#out { color: red; }');
  write('greet.ts', 'export const greet = (name: string): string => `hello ${name} </script><script>alert(1)</script>`;');
  write('view.ts', "import { greet } from './greet';\nimport { APP_MIME } from './mime';\n(globalThis as any).said = greet('view') + ' ' + APP_MIME;");
  write('mime.ts', "export const APP_MIME: string = 'text/html;profile=mcp-app';");
  return write('view.html', PAGE);
}

/** The inline module scripts of `html`. */
const scripts = (html: string) => [...html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map((m) => m[1]);

it('bundles an HTML entry into one file: scripts and styles inlined, </script escaped, the code intact', async () => {
  const entry = project();
  const out = path.join(dir, 'dist', 'view.html');
  const bundled = await bundleApp({ entry, outFile: out, cacheDir: cache });
  expect(bundled.cached).toBe(false);
  expect(readFileSync(out, 'utf8')).toBe(bundled.html);
  expect(bundled.html).not.toMatch(/<script[^>]*\bsrc=|<link[^>]*\bhref=/);
  expect(bundled.html).toMatch(/<style>#out\{color:red\}\s*<\/style>/);
  // Exactly the one script closes: the string's </script> is escaped inside it.
  expect(bundled.html.match(/<\/script>/g)).toHaveLength(1);
  const [code] = scripts(bundled.html);
  const sandbox: { said?: string } = {};
  runInNewContext(code, { globalThis: sandbox });
  expect(sandbox.said).toBe('hello view </script><script>alert(1)</script> text/html;profile=mcp-app');
  expect(bundled.inputs.map((f) => path.basename(f)).sort()).toEqual(['greet.ts', 'mime.ts', 'view.css', 'view.html', 'view.ts']);
  expect(bundled.digest).toMatch(/^[0-9a-f]{16}$/);
});

it('bundles the official App class from node_modules into a page with no eval', async () => {
  write('app.ts', "import { App } from '@modelcontextprotocol/ext-apps';\nconst app = new App({ name: 'x', version: '1' });\nvoid app.connect();");
  const bundled = await bundleApp({
    entry: write('app.app.html', '<!DOCTYPE html><html><head></head><body><script type="module" src="./app.ts"></script></body></html>'),
    cacheDir: false,
  });
  expect(bundled.inputs.some((f) => f.includes(`${path.sep}ext-apps${path.sep}`))).toBe(true);
  expect(bundled.html).not.toMatch(/\beval\(|new Function\(/);
});

it('answers from the cache while no input changed; any change rebuilds with another digest', async () => {
  const entry = project();
  const first = await bundleApp({ entry, cacheDir: cache });
  const again = await bundleApp({ entry, cacheDir: cache });
  expect(again).toEqual({ ...first, cached: true });
  // An imported module two levels down changes: the cache notices, the digest moves.
  write('mime.ts', "export const APP_MIME: string = 'changed';");
  const changed = await bundleApp({ entry, cacheDir: cache });
  expect(changed.cached).toBe(false);
  expect(changed.digest).not.toBe(first.digest);
  write('view.css', '#out { color: blue; }');
  const restyled = await bundleApp({ entry, cacheDir: cache });
  expect(restyled.digest).not.toBe(changed.digest);
  expect((await bundleApp({ entry, cacheDir: cache })).cached).toBe(true);
});

it('a script entry gets a minimal page', async () => {
  write('mime.ts', "export const APP_MIME: string = 'x';");
  const bundled = await bundleApp({ entry: write('solo.ts', "import { APP_MIME } from './mime';\ndocument.body.dataset.mime = APP_MIME;"), cacheDir: false });
  expect(bundled.html).toMatch(/^<!DOCTYPE html>\n<html><head><meta charset="utf-8">/);
  expect(scripts(bundled.html)).toHaveLength(1);
});

it.each([
  ['a CDN script', '<script src="https://cdn.example.com/x.js"></script>', 'is not a file of the project'],
  ['a protocol-relative stylesheet', '<link rel="stylesheet" href="//cdn.example.com/x.css">', 'is not a file of the project'],
  ['a missing script', '<script type="module" src="./nope.ts"></script>', 'does not exist'],
])('refuses %s', async (_what, tag, message) => {
  const entry = write('bad.html', `<!DOCTYPE html><html><head></head><body>${tag}</body></html>`);
  await expect(bundleApp({ entry, cacheDir: false })).rejects.toMatchObject({ code: AppsErrorCode.BundleFailed, message: expect.stringContaining(message) });
});

it('reports a syntax error with its file and line', async () => {
  write('broken.ts', 'const = 1;');
  const entry = write('broken.html', '<!DOCTYPE html><html><body><script type="module" src="./broken.ts"></script></body></html>');
  await expect(bundleApp({ entry, cacheDir: false })).rejects.toMatchObject({
    code: AppsErrorCode.BundleFailed,
    message: expect.stringMatching(/broken\.ts:1: /),
  });
});
