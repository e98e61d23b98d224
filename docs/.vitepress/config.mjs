// The documentation site (VitePress). Pages are the Markdown files of docs/; docs/packages/*.md
// include the packages' READMEs, and docs/api/ is generated from the api-extractor models by
// scripts/docs-api.mjs (npm run docs:build runs it first; not committed).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitepress';

const docs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES = ['protocol', 'core', 'http', 'otel', 'apps', 'redis', 'gateway', 'skills', 'testing', 'cli', 'create-typemcp'];
/** The page that shows each package's README (docs/packages/x.md, or a guide that includes it). */
const PACKAGE_PAGES = new Map([
  ...readdirSync(path.join(docs, 'packages')).map((f) => [f.replace(/\.md$/, ''), `/packages/${f}`]),
  ['testing', '/guide/testing.md'],
  ['cli', '/guide/cli.md'],
  ['create-typemcp', '/guide/cli.md'],
]);
/** Pages made of a package README (`<!--@include: -->`): their links are relative to the README. */
const README_OF_PAGE = new Map([...PACKAGE_PAGES].map(([pkg, page]) => [page.slice(1), `packages/${pkg}/README.md`]));

/**
 * Links written for the repository (they work on GitHub) made into links of the site: a package
 * README is its page under /packages/, the root README is the home page, and any other file of the
 * repository, which the site does not serve, is shown as its path without a link.
 */
function repositoryLinks(md) {
  md.core.ruler.after('inline', 'typemcp-repository-links', (state) => {
    const page = state.env.relativePath ?? '';
    const from = path.posix.dirname(README_OF_PAGE.get(page) ?? path.posix.join('docs', page));
    for (const block of state.tokens) {
      if (block.type !== 'inline' || !block.children) continue;
      const open = [];
      for (const token of block.children) {
        if (token.type === 'link_close') {
          const opened = open.pop();
          if (opened?.unlinked) Object.assign(token, { type: 'html_inline', tag: '', content: '</span>' });
          continue;
        }
        if (token.type !== 'link_open') continue;
        const href = token.attrGet('href') ?? '';
        if (/^[a-z]+:|^#|^\//i.test(href)) {
          open.push(token);
          continue;
        }
        const [file, anchor] = href.split('#');
        const target = path.posix.normalize(path.posix.join(from, file));
        const hash = anchor ? `#${anchor}` : '';
        const pkg = /^packages\/([\w-]+)\/README\.md$/.exec(target);
        if (target.startsWith('docs/')) token.attrSet('href', `/${target.slice(5)}${hash}`);
        else if (pkg && PACKAGE_PAGES.has(pkg[1])) token.attrSet('href', `${PACKAGE_PAGES.get(pkg[1])}${hash}`);
        else if (target === 'README.md') token.attrSet('href', '/');
        else {
          Object.assign(token, { type: 'html_inline', tag: '', content: `<span class="repository-file" title="${target} in the repository">` });
          token.unlinked = true;
        }
        open.push(token);
      }
    }
  });
}

/**
 * The error catalogue (errors.md, one table row per code) gives each code's row an anchor: the
 * code in lower case (`/errors#typemcp_err_invalid_option`).
 */
function errorAnchors(md) {
  md.core.ruler.push('typemcp-error-anchors', (state) => {
    if (state.env.relativePath !== 'errors.md') return;
    const tokens = state.tokens;
    for (let i = 0; i < tokens.length; i++) {
      if (tokens[i].type !== 'tr_open' || tokens[i + 1]?.type !== 'td_open') continue;
      const first = tokens[i + 2]?.children?.find((t) => t.type === 'code_inline');
      if (first && /^TYPEMCP_[A-Z0-9_]+$/.test(first.content)) tokens[i].attrSet('id', first.content.toLowerCase());
    }
  });
}

/** ```mermaid blocks drawn in the browser by the <Mermaid> component (theme/Mermaid.vue). */
function mermaidFences(md) {
  const fence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    if (token.info.trim() === 'mermaid') return `<Mermaid code="${encodeURIComponent(token.content)}" />`;
    return fence(tokens, idx, options, env, self);
  };
}

const guide = [
  ['servers', 'Tools, resources, prompts and DTOs'],
  ['contract', 'The contract'],
  ['context', 'Context and client requests'],
  ['tasks', 'Long-running tools: tasks'],
  ['apps', 'MCP Apps'],
  ['skills', 'Skills'],
  ['extensions', 'Writing an extension'],
  ['interceptors', 'Interceptors and hooks'],
  ['telemetry', 'Telemetry and logs'],
  ['authorization', 'Authorization'],
  ['deploying', 'Deploying'],
  ['scaling', 'Running several instances'],
  ['gateways', 'Gateways and OpenAPI'],
  ['runtimes', 'Other runtimes'],
  ['testing', 'Testing'],
  ['cli', 'The CLI'],
];

export default defineConfig({
  title: 'TypeMCP',
  description: 'A decorator-based TypeScript framework for Model Context Protocol servers',
  cleanUrls: false,
  head: [['link', { rel: 'icon', type: 'image/svg+xml', href: '/logo.svg' }]],
  srcExclude: ['**/README.md'],
  markdown: {
    config(md) {
      repositoryLinks(md);
      errorAnchors(md);
      mermaidFences(md);
    },
  },
  vite: {
    // bench/charts/*.svg are images of the performance page, read from where the benches write them.
    server: { fs: { allow: [path.resolve(docs, '..')] } },
    // mermaid is one large chunk, loaded only by the pages that draw a diagram.
    build: { chunkSizeWarningLimit: 3000 },
  },
  themeConfig: {
    logo: '/logo.svg',
    search: { provider: 'local' },
    nav: [
      { text: 'Getting started', link: '/getting-started' },
      { text: 'Guides', link: '/guide/servers' },
      { text: 'Concepts', link: '/concepts/engine' },
      { text: 'API', link: '/api/' },
      { text: 'Errors', link: '/errors' },
    ],
    sidebar: [
      { text: 'Getting started', items: [{ text: 'Getting started', link: '/getting-started' }] },
      { text: 'Guides', items: guide.map(([page, text]) => ({ text, link: `/guide/${page}` })) },
      {
        text: 'Concepts',
        items: [
          { text: 'The engine', link: '/concepts/engine' },
          { text: 'Eras and revisions', link: '/concepts/eras' },
          { text: 'The schema manifest', link: '/concepts/manifest' },
          { text: 'Architecture', link: '/architecture' },
          { text: 'Design notes', link: '/concepts/design-notes' },
        ],
      },
      {
        text: 'Reference',
        items: [
          { text: 'API', link: '/api/' },
          { text: 'Error codes', link: '/errors' },
          ...PACKAGES.filter((p) => PACKAGE_PAGES.get(p)?.startsWith('/packages/')).map((p) => ({ text: `@typemcp/${p}`, link: `/packages/${p}` })),
        ],
      },
      {
        text: 'Project',
        items: [
          { text: 'Performance', link: '/project/performance' },
          { text: 'Development', link: '/project/development' },
        ],
      },
    ],
  },
  // The API pages exist once scripts/docs-api.mjs has run; without them only their links are dead.
  ignoreDeadLinks: existsSync(path.join(docs, 'api', 'index.md')) ? false : [/^\/api\//],
});
