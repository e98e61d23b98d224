/**
 * The built documentation site (npm run docs:build, which .ci/run runs before npm test) in a
 * real headless Chromium, served from docs/.vitepress/dist by a small static server on
 * 127.0.0.1: every page of the build is checked, and the test fails on a console error, an
 * uncaught exception or a failed request, an image that did not load, a diagram that was not
 * drawn, or an internal link whose page or `#anchor` does not exist. Every page, the ~500
 * generated API pages included, is opened as a reader opens it (the app hydrated, diagrams
 * drawn). The local search finds "elicit".
 * DOCS_SCREENSHOTS=<folder> also saves the home page, two guides and an API entry there as PNGs.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { openChromiumProfile } from './support/apps-browser';

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'docs/.vitepress/dist');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* filesUnder(full);
    else yield full;
  }
}

/** The file a URL path names in the build, or undefined. */
function fileFor(urlPath: string): string | undefined {
  const decoded = decodeURIComponent(urlPath);
  const candidate = path.join(DIST, decoded.endsWith('/') ? `${decoded}index.html` : decoded);
  if (!candidate.startsWith(DIST)) return undefined;
  for (const file of [candidate, `${candidate}.html`]) if (existsSync(file) && statSync(file).isFile()) return file;
  return undefined;
}

/** What one visit found. */
interface Visit {
  errors: string[];
  ids: string[];
  links: string[];
  brokenImages: string[];
  diagrams: { drawn: number; total: number };
}

/** A tab that visits pages one after the other, each visit with its own errors. */
async function openTab(context: BrowserContext): Promise<(url: string) => Promise<Visit>> {
  const page = await context.newPage();
  let errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`exception: ${String(e)}`));
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
  });
  return async (url) => {
    errors = [];
    await page.goto(url, { waitUntil: 'load' });
    // Diagrams are drawn after mermaid loads: give each one the time to appear.
    const total = await page.locator('.mermaid-diagram').count();
    if (total)
      await page.waitForFunction(`document.querySelectorAll('.mermaid-diagram svg').length >= ${total}`, undefined, { timeout: 15_000 }).catch(() => {});
    // Evaluated in the page (this program is compiled without the DOM's types).
    const found = await page.evaluate<{ ids: string[]; links: string[]; brokenImages: string[]; drawn: number }>(`({
      ids: [...document.querySelectorAll('[id]')].map((e) => e.id),
      links: [...document.querySelectorAll('a[href]')].map((a) => a.href),
      brokenImages: [...document.images].filter((i) => !i.complete || i.naturalWidth === 0).map((i) => i.src),
      drawn: document.querySelectorAll('.mermaid-diagram svg').length,
    })`);
    return { errors, ids: found.ids, links: found.links, brokenImages: found.brokenImages, diagrams: { drawn: found.drawn, total } };
  };
}

describe('the documentation site in Chromium', () => {
  let server: Server;
  let origin: string;
  let context: BrowserContext;
  let browser: Awaited<ReturnType<typeof openChromiumProfile>> | undefined;
  const pages = new Map<string, Visit>();

  beforeAll(async () => {
    if (!existsSync(path.join(DIST, 'index.html'))) throw new Error('docs/.vitepress/dist is not built: run npm run docs:build first (.ci/run does)');
    server = createServer((req, res) => {
      const file = fileFor(new URL(req.url ?? '/', 'http://x').pathname);
      if (!file) {
        res.writeHead(404, { 'content-type': TYPES['.html'] }).end(readFileSync(path.join(DIST, '404.html')));
        return;
      }
      // Hashed assets are cached as a web server would cache them, so each page loads only its own.
      const cache = file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache';
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': cache }).end(readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await openChromiumProfile('typemcp-docs-chromium-');
    context = browser.context;
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  const htmlPages = () =>
    [...filesUnder(DIST)]
      .filter((f) => f.endsWith('.html') && path.basename(f) !== '404.html')
      .map((f) => '/' + path.relative(DIST, f).split(path.sep).join('/'))
      .sort();

  it('opens every page: no console error, missing image or undrawn diagram', async () => {
    const all = htmlPages();
    expect(all).toEqual(
      expect.arrayContaining(['/index.html', '/getting-started.html', '/guide/apps.html', '/errors.html', '/api/index.html', '/api/core.createserver.html']),
    );
    const problems: string[] = [];
    const record = (url: string, found: Visit) => {
      pages.set(url, found);
      for (const e of found.errors) problems.push(`${url}: ${e}`);
      for (const src of found.brokenImages) problems.push(`${url}: image ${src} did not load`);
      if (found.diagrams.drawn < found.diagrams.total) problems.push(`${url}: ${found.diagrams.total - found.diagrams.drawn} diagram(s) not drawn`);
    };
    // Every page as a reader opens it, the generated API pages too: three tabs at a time (the
    // machine has two cores).
    const queue = [...all];
    await Promise.all(
      [0, 1, 2].map(async () => {
        const visit = await openTab(context);
        for (let next = queue.shift(); next; next = queue.shift()) record(next, await visit(origin + next));
      }),
    );
    expect(all.length).toBeGreaterThan(400);
    expect(problems).toEqual([]);
    expect(pages.size).toBe(all.length);
    // The pictures are there: the engine's two diagrams, the charts of the performance page.
    expect(pages.get('/concepts/engine.html')?.diagrams).toEqual({ drawn: 2, total: 2 });
  }, 1_500_000);

  it('has no broken internal link or anchor', () => {
    expect(pages.size).toBeGreaterThan(0);
    const broken: string[] = [];
    for (const [from, found] of pages) {
      for (const href of found.links) {
        const url = new URL(href);
        if (url.origin !== origin) continue;
        const file = fileFor(url.pathname);
        if (!file) {
          broken.push(`${from} -> ${url.pathname}: no such page`);
          continue;
        }
        if (!url.hash || url.hash === '#') continue;
        const target = '/' + path.relative(DIST, file).split(path.sep).join('/');
        const ids = pages.get(target)?.ids;
        if (!ids) continue; // not a page (an asset)
        if (!ids.includes(decodeURIComponent(url.hash.slice(1)))) broken.push(`${from} -> ${url.pathname}${url.hash}: no such anchor`);
      }
    }
    expect([...new Set(broken)]).toEqual([]);
  });

  it('finds "elicit" with the local search', async () => {
    const page: Page = await context.newPage();
    try {
      await page.goto(`${origin}/index.html`);
      await page.locator('.VPNavBarSearch button').first().click();
      await page.locator('input.search-input').fill('elicit');
      const results = page.locator('ul.results li');
      await results.first().waitFor({ timeout: 15_000 });
      expect(await results.count()).toBeGreaterThan(0);
      expect((await results.allTextContents()).join(' ').toLowerCase()).toContain('elicit');
      if (process.env.DOCS_SCREENSHOTS) await screenshots(page, process.env.DOCS_SCREENSHOTS);
    } finally {
      await page.close();
    }
  }, 120_000);

  /** The home page, two guides and an API entry as PNGs in `folder`. */
  async function screenshots(page: Page, folder: string) {
    mkdirSync(folder, { recursive: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const [name, url] of [
      ['home', '/index.html'],
      ['guide-apps', '/guide/apps.html'],
      ['concepts-engine', '/concepts/engine.html'],
      ['api-core-createserver', '/api/core.createserver.html'],
    ]) {
      await page.goto(origin + url, { waitUntil: 'load' });
      await page.waitForTimeout(1500);
      await page.screenshot({ path: path.join(folder, `${name}.png`) });
    }
  }
});
