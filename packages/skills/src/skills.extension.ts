/**
 * The io.modelcontextprotocol/skills extension (SEP-2640) on the engine's extension API: the
 * settings (`directoryRead`), `skills/list`, `skills/get` and `resources/directory/read`, every
 * skill file as a resource (`resources/read`), from a folder read once at start-up and from
 * `@Skill()` methods of served classes.
 */
import type { ExtensionManifest, ExtensionMember, ServerExtension } from '@typemcp/core';
import {
  DefinitionError,
  ErrorCode,
  extensionMethod,
  InsufficientScopeError,
  McpError,
  missingScopes,
  requireString,
  type CacheHint,
  type ExtensionApi,
  type ReadResourceResult,
  type RequestContext,
  type ResourceContents,
} from '@typemcp/protocol';
import { SkillsErrorCode } from './errors.js';
import { checkFrontmatter, SKILL_NAME, skillMarkdown, type SkillFrontmatter } from './frontmatter.js';
import { readSkillsFolder, skillUri, SKILL_FILE, uriPath, type DirectoryChild, type RecordedFile, type SkillsFolder } from './folder.js';
import { SKILLS_EXTENSION } from './ids.js';
import { asText, DIRECTORY_MIME, isTextual, mimeTypeOf } from './mime.js';
import type { SkillContent, SkillOptions } from './skill.decorator.js';

/** One file of a skill's manifest. @publicApi */
export interface SkillResource {
  uri: string;
  /** `sha256:<64 lowercase hex>` of the file's bytes. */
  digest: string;
  /** Its length in bytes. */
  size: number;
}

/** A skill as `skills/list` and `skills/get` show it. @publicApi */
export interface SkillEntry {
  /** The URI of its SKILL.md. */
  uri: string;
  /** SKILL.md's frontmatter, as JSON. */
  frontmatter: SkillFrontmatter;
  /** Every file with its digest and size, or `"dynamic"` for a skill generated at request time. */
  resources: SkillResource[] | 'dynamic';
}

/** Options of {@link skills}. @publicApi */
export interface SkillsOptions {
  /** The skills folder: one folder per skill (`<dir>/<name>/SKILL.md`, nested folders allowed). None: only `@Skill()` methods. */
  dir?: string;
  /** Serve `resources/directory/read` (and advertise `directoryRead: true`). Default true. */
  directoryRead?: boolean;
  /** OAuth scopes a caller needs to see and read a skill, by skill path (`acme/billing/refunds`); a nested skill needs its parents' too. */
  scopes?: Readonly<Record<string, readonly string[]>>;
  /** 2026-07-28 caching hints of `skills/get` and of reads of skill files (default: the server's `cache.read`). */
  cache?: Partial<CacheHint>;
}

/** The installed extension, with what a dev server needs. @publicApi */
export interface SkillsExtension extends ServerExtension {
  /** The skills served now (folder and `@Skill()` methods), sorted by URI. */
  entries(): SkillEntry[];
  /** Reads the folder again and serves what it holds now (clients get `notifications/resources/list_changed`). Throws, serving the old skills, when it is invalid. */
  reload(): void;
  /** The digest of every folder file, by URI. */
  digests(): Record<string, string>;
  /** Keeps the folder's digests in the schema manifest (`typemcp build`), so start-up needs no SHA-256. */
  readonly manifest: ExtensionManifest;
}

/** A skill as the extension serves it. */
interface Served {
  readonly entry: SkillEntry;
  readonly path: string;
  readonly scopes?: readonly string[];
  /** Present for a `@Skill()` method's skill. */
  readonly produce?: (ctx: RequestContext) => Promise<{ markdown: string; files: Map<string, Uint8Array> }>;
}

function invalidSkill(detail: string): DefinitionError {
  return new DefinitionError(SkillsErrorCode.InvalidSkill, `Invalid skill ${detail}.`);
}

/** The contents of a read of `bytes` at `uri`: text when its type is textual and it is UTF-8, else base64. */
function contentsOf(uri: string, mimeType: string, bytes: Uint8Array): ResourceContents {
  const text = isTextual(mimeType) ? asText(bytes) : undefined;
  return text !== undefined ? { uri, mimeType, text } : { uri, mimeType, blob: Buffer.from(bytes).toString('base64') };
}

const union = (...lists: (readonly string[] | undefined)[]): readonly string[] | undefined => {
  const all = [...new Set(lists.flatMap((l) => l ?? []))];
  return all.length ? all : undefined;
};

/** The children of `dir` (a path relative to the skill, '' for its root) among a generated skill's files. */
function childrenOf(base: string, dir: string, paths: Iterable<[string, Uint8Array]>): DirectoryChild[] | undefined {
  const prefix = dir ? `${dir}/` : '';
  const out = new Map<string, DirectoryChild>();
  let found = dir === '';
  for (const [file, bytes] of paths) {
    if (!file.startsWith(prefix)) continue;
    found = true;
    const rest = file.slice(prefix.length);
    const slash = rest.indexOf('/');
    const name = slash < 0 ? rest : rest.slice(0, slash);
    if (out.has(name)) continue;
    const uri = `${base}/${uriPath(prefix + name)}`;
    out.set(name, slash < 0 ? { uri, name, mimeType: mimeTypeOf(name, bytes), size: bytes.length } : { uri, name, mimeType: DIRECTORY_MIME });
  }
  return found ? [...out.values()].sort((a, b) => (a.name < b.name ? -1 : 1)) : undefined;
}

/** Checks a `@Skill()`'s relative file paths: `/`-separated, no empty, `.` or `..` segment, no dotfile. */
function checkFilePath(origin: string, file: string): void {
  const segments = file.split('/');
  if (file === SKILL_FILE || segments.some((s) => s === '' || s === '.' || s === '..' || s.startsWith('.'))) {
    throw new TypeError(
      `${origin} returned a file "${file}": give paths relative to the skill (references/guide.md), not SKILL.md, without empty, "." or ".." segments or dotfiles`,
    );
  }
}

/**
 * The skills extension: `skills({ dir: 'skills' })` serves a folder, `@Skill()` methods of the
 * served classes add generated skills.
 * @publicApi
 */
export function skills(options: SkillsOptions | string = {}): SkillsExtension {
  const opts: SkillsOptions = typeof options === 'string' ? { dir: options } : options;
  const directoryRead = opts.directoryRead !== false;
  const scopesOf = (path: string): readonly string[] | undefined => {
    const segments = path.split('/');
    // A skill needs the scopes given for it and for every skill it is nested in.
    return union(...segments.map((_, i) => opts.scopes?.[segments.slice(0, i + 1).join('/')]));
  };
  let folder: SkillsFolder | undefined;
  let loaded = false;
  // From the schema manifest (createServer hands it over before setup), if any.
  let recorded: Record<string, RecordedFile> | undefined;
  let warn: ((warning: { code: string; message: string }) => void) | undefined;
  const load = (digests?: Record<string, RecordedFile>): SkillsFolder | undefined => {
    if (opts.dir === undefined) return undefined;
    const read = readSkillsFolder(opts.dir, digests);
    const paths = new Set(read.skills.map((s) => s.path));
    for (const path of Object.keys(opts.scopes ?? {})) {
      if (!paths.has(path)) throw invalidSkill(`scopes for "${path}": the folder ${read.root} has no skill there (skills: ${[...paths].join(', ') || 'none'})`);
    }
    if (read.stale.length) {
      warn?.({
        code: SkillsErrorCode.StaleDigests,
        message: `The skills in ${read.root} changed since typemcp build recorded their digests (${read.stale.join('; ')}): those were digested at start-up instead (node:crypto). Run typemcp build again after editing skills.`,
      });
    }
    return read;
  };
  /** The folder, read on first need (at setup at the latest). */
  const current = (): SkillsFolder | undefined => {
    if (!loaded) {
      folder = load(recorded);
      loaded = true;
      rebuild();
    }
    return folder;
  };

  let api: ExtensionApi | undefined;
  const served = new Map<string, Served>();
  const generated = new Map<string, Served>();
  let registered: string[] = [];

  const fromFolder = (f: SkillsFolder | undefined): Map<string, Served> => {
    const out = new Map<string, Served>();
    for (const skill of f?.skills ?? []) {
      const scopes = scopesOf(skill.path);
      const entry: SkillEntry = {
        uri: skill.uri,
        frontmatter: skill.frontmatter,
        resources: skill.files.map(({ uri, digest, size }) => ({ uri, digest, size })),
      };
      out.set(skill.uri, { entry, path: skill.path, ...(scopes ? { scopes } : {}) });
    }
    return out;
  };

  /** Registers the folder's files as resources (SKILL.md listed, the others readable only). */
  const registerFolder = (a: ExtensionApi, f: SkillsFolder | undefined) => {
    for (const uri of registered) a.registry.removeResource(uri);
    registered = [];
    if (!f) return;
    const bySkillMd = new Map(f.skills.map((s) => [s.uri, s]));
    for (const file of f.files.values()) {
      const owners = f.skills.filter((s) => file.relative.startsWith(`${s.path}/`));
      const scopes = union(...owners.map((s) => scopesOf(s.path)));
      const skill = bySkillMd.get(file.uri);
      const name = file.relative.slice(owners[owners.length - 1].path.length + 1);
      a.registry.addResource(
        skill
          ? { uri: file.uri, name: skill.frontmatter.name, description: skill.frontmatter.description, mimeType: file.mimeType, size: file.size }
          : { uri: file.uri, name, mimeType: file.mimeType, size: file.size },
        (uri) => ({ contents: [contentsOf(uri, file.mimeType, file.bytes)] }),
        { ...(scopes ? { scopes } : {}), ...(skill ? {} : { listed: false }), ...(opts.cache ? { cache: opts.cache } : {}) },
      );
      registered.push(file.uri);
    }
  };

  function rebuild(): void {
    served.clear();
    for (const [uri, s] of fromFolder(folder)) served.set(uri, s);
    for (const [uri, s] of generated) served.set(uri, s);
    ordered = undefined;
  }

  // By URI, sorted once per change (not per request).
  let ordered: Served[] | undefined;
  const sorted = (): Served[] => (ordered ??= [...served.values()].sort((a, b) => (a.entry.uri < b.entry.uri ? -1 : 1)));

  const refuse = (s: Served, ctx: RequestContext) => {
    const missing = missingScopes(s.scopes, ctx.principal);
    if (missing.length) throw new InsufficientScopeError(s.scopes!, missing);
  };

  /** The directory at `uri` and the skill it is in, or undefined. */
  const directory = async (uri: string, ctx: RequestContext): Promise<{ children: readonly DirectoryChild[]; skill: Served } | undefined> => {
    const fixed = folder?.directories.get(uri);
    if (fixed) {
      // The innermost skill holding it (the longest path) decides the scopes.
      const skill = [...served.values()]
        .filter((s) => !s.produce && (uri === skillUri(s.path) || uri.startsWith(`${skillUri(s.path)}/`)))
        .sort((a, b) => b.path.length - a.path.length)[0];
      return skill ? { children: fixed, skill } : undefined;
    }
    for (const s of generated.values()) {
      const base = skillUri(s.path);
      if (uri !== base && !uri.startsWith(`${base}/`)) continue;
      refuse(s, ctx);
      const { markdown, files } = await s.produce!(ctx);
      const all: [string, Uint8Array][] = [[SKILL_FILE, Buffer.from(markdown)], ...files];
      const rel = uri === base ? '' : decodeURIComponent(uri.slice(base.length + 1));
      const children = childrenOf(base, rel, all);
      return children ? { children, skill: s } : undefined;
    }
    return undefined;
  };

  const extension: SkillsExtension = {
    id: SKILLS_EXTENSION,
    settings: directoryRead ? { directoryRead: true } : {},
    setup(given) {
      api = given;
      registerFolder(given, current());
    },
    manifest: {
      write: () => ({
        files: Object.fromEntries([...(current()?.files.values() ?? [])].map((f) => [f.relative, { digest: f.digest, fingerprint: f.fingerprint }])),
      }),
      read(data, given) {
        warn = given;
        const files = (data as { files?: unknown } | undefined)?.files;
        if (files !== null && typeof files === 'object') recorded = files as Record<string, RecordedFile>;
      },
    },
    methods: {
      'skills/list': {
        cache: 'list',
        handler(params, ctx) {
          const visible = sorted()
            .filter((s) => api!.listable(s, ctx))
            .map((s) => s.entry);
          const page = api!.page(visible, params.cursor);
          return page.nextCursor ? { skills: page.items, nextCursor: page.nextCursor } : { skills: page.items };
        },
      },
      'skills/get': extensionMethod<{ uri: string }>({
        cache: 'read',
        params: (raw) => ({ uri: requireString(raw, 'uri', 'skills/get') }),
        handler({ uri }, ctx) {
          const s = served.get(uri);
          if (!s) throw new McpError(ErrorCode.InvalidParams, `No skill is served at ${uri}`, { uri });
          refuse(s, ctx);
          if (opts.cache) ctx.cacheHint = opts.cache;
          return { skill: s.entry };
        },
      }),
      ...(directoryRead
        ? {
            'resources/directory/read': extensionMethod<{ uri: string; cursor?: unknown }>({
              params: (raw) => ({ uri: requireString(raw, 'uri', 'resources/directory/read'), cursor: raw.cursor }),
              async handler({ uri, cursor }, ctx) {
                const found = await directory(uri, ctx);
                if (!found) throw new McpError(ErrorCode.InvalidParams, `${uri} is not a directory resource`, { uri });
                refuse(found.skill, ctx);
                const page = api!.page(found.children, cursor);
                return page.nextCursor ? { resources: page.items, nextCursor: page.nextCursor } : { resources: page.items };
              },
            }),
          }
        : {}),
    },
    bindService(service) {
      const mine = service.members.filter((m) => (m.data as { skill?: SkillOptions }).skill);
      if (!mine.length || !api) return;
      const a = api;
      const added: { uri: string; resources: string[] }[] = [];
      try {
        for (const member of mine) added.push(addGenerated(a, member, service.scopes));
      } catch (error) {
        for (const { uri, resources } of added) undoGenerated(a, uri, resources);
        throw error;
      }
      rebuild();
      return () => {
        for (const { uri, resources } of added) undoGenerated(a, uri, resources);
        rebuild();
      };
    },
    entries: () => (current(), sorted().map((s) => s.entry)),
    reload() {
      // The manifest's digests describe the folder as it was built: an edited folder is digested anew.
      const next = load();
      folder = next;
      loaded = true;
      if (api) registerFolder(api, next);
      rebuild();
    },
    digests() {
      return Object.fromEntries([...(current()?.files.values() ?? [])].map((f) => [f.uri, f.digest]));
    },
  };

  function undoGenerated(a: ExtensionApi, uri: string, resources: string[]): void {
    generated.delete(uri);
    for (const r of resources) a.registry.removeResource(r);
  }

  /** Serves one `@Skill()` method; returns what to undo. */
  function addGenerated(a: ExtensionApi, member: ExtensionMember, classScopes: readonly string[] | undefined): { uri: string; resources: string[] } {
    const options = (member.data as { skill: SkillOptions }).skill;
    const where = `@Skill() ${member.origin}`;
    const prefix = options.prefix?.replace(/^\/+|\/+$/g, '');
    if (prefix !== undefined && prefix.split('/').some((s) => s === '' || s === '.' || s === '..')) {
      throw invalidSkill(`${where}: prefix "${options.prefix}" must be folder names separated by "/"`);
    }
    if (typeof options.name !== 'string' || !SKILL_NAME.test(options.name)) {
      throw invalidSkill(
        `${where}: name ${JSON.stringify(options.name)} breaks the Agent Skills naming rule (1-64 lowercase letters, digits and hyphens, no hyphen first, last or doubled)`,
      );
    }
    const frontmatter = checkFrontmatter(where, { ...options.frontmatter, name: options.name, description: options.description }, options.name);
    const path = prefix ? `${prefix}/${options.name}` : options.name;
    const base = skillUri(path);
    const uri = `${base}/${SKILL_FILE}`;
    if (served.has(uri) || generated.has(uri)) {
      throw new DefinitionError(
        SkillsErrorCode.DuplicateSkill,
        `Skill ${uri} of ${where} is already served (by the folder or another @Skill() method); give it another name or prefix`,
      );
    }
    const scopes = union(classScopes, options.scopes, scopesOf(path));
    const produce = async (ctx: RequestContext) => {
      const value = (await member.call(undefined, ctx)) as SkillContent;
      const { body, files } = typeof value === 'string' ? { body: value, files: undefined } : (value ?? ({} as { body?: unknown; files?: undefined }));
      if (typeof body !== 'string') throw new TypeError(`${member.origin} (a @Skill() method) returned no body: return the markdown, or { body, files }`);
      const out = new Map<string, Uint8Array>();
      for (const [file, content] of Object.entries(files ?? {})) {
        checkFilePath(member.origin, file);
        out.set(file, typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
      }
      return { markdown: skillMarkdown(frontmatter, body), files: out };
    };
    const registration = { ...(scopes ? { scopes } : {}), ...(opts.cache ? { cache: opts.cache } : {}) };
    const mime = 'text/markdown';
    a.registry.addResource(
      { uri, name: frontmatter.name, description: frontmatter.description, mimeType: mime },
      async (read, ctx) => ({ contents: [contentsOf(read, mime, Buffer.from((await produce(ctx)).markdown, 'utf8'))] }),
      registration,
    );
    const template = `${base}/{+file}`;
    try {
      a.registry.addResourceTemplate(
        { uriTemplate: template, name: `${frontmatter.name}-files`, description: `The files of the generated skill ${frontmatter.name}` },
        async (read, _variables, ctx): Promise<ReadResourceResult> => {
          const rel = decodeURIComponent(read.slice(base.length + 1));
          const bytes = (await produce(ctx)).files.get(rel);
          if (!bytes) throw new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${read}`, { uri: read });
          return { contents: [contentsOf(read, mimeTypeOf(rel, bytes), bytes)] };
        },
        { ...registration, listed: false },
      );
    } catch (error) {
      a.registry.removeResource(uri);
      throw error;
    }
    generated.set(uri, { entry: { uri, frontmatter, resources: 'dynamic' }, path, ...(scopes ? { scopes } : {}), produce });
    return { uri, resources: [uri, template] };
  }

  return extension;
}
