/**
 * A skills folder read once: every directory that holds a `SKILL.md` is a skill (at any depth:
 * the path from the folder is its `<skill-path>`, nested skills included), each file of it with
 * its bytes, SHA-256 digest, size and MIME type, each directory with its direct children. The
 * limits of SEP-2640 are checked here, so a skill over one is never served.
 */
import type * as Crypto from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type * as Zlib from 'node:zlib';
import { DefinitionError } from '@typemcp/protocol';
import { SkillsErrorCode } from './errors.js';
import { parseFrontmatter, SKILL_NAME, type SkillFrontmatter } from './frontmatter.js';
import { DIRECTORY_MIME, mimeTypeOf } from './mime.js';

/** Files per skill, SKILL.md included (SEP-2640 "Limits"). */
export const MAX_FILES_PER_SKILL = 512;
/** Bytes per skill, all files summed (16 MiB). */
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;
/** How deep the walk goes below the folder (a guard against a runaway tree). */
const MAX_DEPTH = 32;

export const SKILL_FILE = 'SKILL.md';

/** One file of a skill as the manifest lists it and a read serves it. */
export interface SkillFile {
  /** `skill://<skill-path>/<file-path>`. */
  readonly uri: string;
  /** The path relative to the folder, `/`-separated. */
  readonly relative: string;
  readonly bytes: Buffer;
  /** `sha256:<64 lowercase hex>` of the bytes. */
  readonly digest: string;
  readonly size: number;
  readonly mimeType: string;
  /** Length and CRC-32. */
  readonly fingerprint: string;
}

/** A child of a directory resource. */
export interface DirectoryChild {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
  readonly size?: number;
}

/** One skill of the folder. */
export interface FolderSkill {
  /** `<skill-path>`: the folder-relative path of its directory, `/`-separated. */
  readonly path: string;
  /** The URI of its SKILL.md. */
  readonly uri: string;
  readonly frontmatter: SkillFrontmatter;
  /** Its files, SKILL.md first, then by path (nested skills' files included). */
  readonly files: readonly SkillFile[];
}

/** What a folder holds. */
export interface SkillsFolder {
  readonly root: string;
  /** By `<skill-path>`, sorted. */
  readonly skills: readonly FolderSkill[];
  /** Every file of a skill, by URI. */
  readonly files: ReadonlyMap<string, SkillFile>;
  /** Every directory within a skill, by URI (no trailing slash), with its direct children sorted by name. */
  readonly directories: ReadonlyMap<string, readonly DirectoryChild[]>;
  /** With recorded digests: what differs from them (files changed, new or gone), each digested anew. Empty otherwise. */
  readonly stale: readonly string[];
}

function folderError(detail: string): DefinitionError {
  return new DefinitionError(SkillsErrorCode.InvalidFolder, `Invalid skills folder: ${detail}.`);
}

/** A `/`-separated relative path as URI path segments (each percent-encoded as needed). */
export function uriPath(relative: string): string {
  return relative
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
}

/** `skill://` + the encoded path. */
export function skillUri(relative: string): string {
  return `skill://${uriPath(relative)}`;
}

/**
 * The SHA-256 digest of bytes as SEP-2640 writes it. node:crypto is loaded only here (5-15 ms at
 * start-up): a server started with digests from its schema manifest never loads it.
 */
export function digestOf(bytes: Uint8Array): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose
  const { createHash } = require('node:crypto') as typeof Crypto;
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** A file's fingerprint as the schema manifest checks files: length and CRC-32 (node:zlib, about 1 ms to load). */
export function fingerprintOf(bytes: Uint8Array): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose
  const { crc32 } = require('node:zlib') as typeof Zlib;
  return `${bytes.length}:${crc32(bytes).toString(16)}`;
}

/** What `typemcp build` records of a file: its digest, and the fingerprint that says the file is still the one digested. */
export interface RecordedFile {
  readonly digest: string;
  readonly fingerprint: string;
}

interface Walked {
  /** Regular files, folder-relative, sorted. */
  files: string[];
  /** Directories (folder-relative, '' for the folder itself) with their children's names. */
  dirs: Map<string, { name: string; dir: boolean }[]>;
}

function walk(root: string): Walked {
  const out: Walked = { files: [], dirs: new Map() };
  const visit = (relative: string, depth: number) => {
    if (depth > MAX_DEPTH) throw folderError(`${path.join(root, relative)} is more than ${MAX_DEPTH} folders deep`);
    const children: { name: string; dir: boolean }[] = [];
    out.dirs.set(relative, children);
    const entries = readdirSync(path.join(root, relative), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      // Dotfiles (.DS_Store, .git) are never part of a skill.
      if (entry.name.startsWith('.')) continue;
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isSymbolicLink()) {
        throw folderError(
          `${path.join(root, child)} is a symbolic link, which is not served (it could reach outside the folder); copy the file or folder instead`,
        );
      }
      if (entry.isDirectory()) {
        children.push({ name: entry.name, dir: true });
        visit(child, depth + 1);
      } else if (entry.isFile()) {
        children.push({ name: entry.name, dir: false });
        out.files.push(child);
      }
    }
  };
  visit('', 0);
  out.files.sort();
  return out;
}

function limitError(skill: string, detail: string): DefinitionError {
  return new DefinitionError(SkillsErrorCode.SkillLimit, `Skill "${skill}" is over a limit of the skills extension: ${detail}.`);
}

/**
 * Reads the folder (synchronously: it runs once, at start-up), checking every skill. With the
 * digests `typemcp build` recorded (by folder-relative path), a file whose fingerprint still
 * matches takes its recorded digest; any other is digested now and reported in `stale`.
 */
export function readSkillsFolder(root: string, recorded?: Readonly<Record<string, RecordedFile>>): SkillsFolder {
  const absolute = path.resolve(root);
  let stat;
  try {
    stat = lstatSync(absolute);
  } catch {
    throw folderError(`${absolute} does not exist; create it with one folder per skill (skills/<name>/SKILL.md), or give the right path`);
  }
  if (!stat.isDirectory()) throw folderError(`${absolute} is not a folder`);
  const walked = walk(absolute);
  const skillDirs = walked.files.filter((f) => path.posix.basename(f) === SKILL_FILE).map((f) => path.posix.dirname(f));
  if (skillDirs.includes('.'))
    throw folderError(`${path.join(absolute, SKILL_FILE)} is at the top of the folder; put each skill in a folder of its own name (skills/<name>/SKILL.md)`);

  const files = new Map<string, SkillFile>();
  const stale: string[] = [];
  const fileOf = (relative: string): SkillFile => {
    const uri = skillUri(relative);
    let file = files.get(uri);
    if (!file) {
      const bytes = readFileSync(path.join(absolute, relative));
      const fingerprint = fingerprintOf(bytes);
      const known = recorded?.[relative];
      let digest: string;
      if (known && known.fingerprint === fingerprint) digest = known.digest;
      else {
        digest = digestOf(bytes);
        if (recorded) stale.push(known ? `${relative} changed` : `${relative} is new`);
      }
      file = { uri, relative, bytes, digest, size: bytes.length, mimeType: mimeTypeOf(path.posix.basename(relative), bytes), fingerprint };
      files.set(uri, file);
    }
    return file;
  };

  const skills: FolderSkill[] = [];
  for (const dir of skillDirs.sort()) {
    const segments = dir.split('/');
    const folder = segments[segments.length - 1];
    const where = `${path.join(absolute, dir, SKILL_FILE)}`;
    if (!SKILL_NAME.test(folder)) {
      throw new DefinitionError(
        SkillsErrorCode.InvalidSkill,
        `Invalid skill ${where}: the folder name "${folder}" breaks the Agent Skills naming rule (1-64 lowercase letters, digits and hyphens, no hyphen first, last or doubled); rename the folder and the frontmatter's name`,
      );
    }
    const inside = walked.files.filter((f) => f.startsWith(`${dir}/`));
    if (inside.length > MAX_FILES_PER_SKILL) {
      throw limitError(
        dir,
        `it has ${inside.length} files, more than ${MAX_FILES_PER_SKILL} (SKILL.md included); split it into smaller skills or move files out`,
      );
    }
    // Sizes before reading, so an oversized file is refused without loading it.
    let total = 0;
    for (const f of inside) {
      const size = lstatSync(path.join(absolute, f)).size;
      if (size > MAX_SKILL_BYTES) throw limitError(dir, `${f} is ${size} bytes, more than the ${MAX_SKILL_BYTES} bytes (16 MiB) a whole skill may hold`);
      total += size;
    }
    if (total > MAX_SKILL_BYTES)
      throw limitError(dir, `its files hold ${total} bytes, more than ${MAX_SKILL_BYTES} (16 MiB); move large files out of the skill`);
    const skillMd = fileOf(`${dir}/${SKILL_FILE}`);
    const frontmatter = parseFrontmatter(where, skillMd.bytes.toString('utf8'), folder);
    const rest = inside.filter((f) => f !== `${dir}/${SKILL_FILE}`).map(fileOf);
    skills.push({ path: dir, uri: skillMd.uri, frontmatter, files: [skillMd, ...rest] });
  }

  const directories = new Map<string, DirectoryChild[]>();
  for (const [dir, children] of walked.dirs) {
    if (!skillDirs.some((s) => dir === s || dir.startsWith(`${s}/`))) continue;
    directories.set(
      skillUri(dir),
      children.map(({ name, dir: isDir }) => {
        const relative = `${dir}/${name}`;
        if (isDir) return { uri: skillUri(relative), name, mimeType: DIRECTORY_MIME };
        const file = fileOf(relative);
        return { uri: file.uri, name, mimeType: file.mimeType, size: file.size };
      }),
    );
  }
  if (recorded) {
    const served = new Set([...files.values()].map((f) => f.relative));
    for (const relative of Object.keys(recorded)) if (!served.has(relative)) stale.push(`${relative} is gone`);
  }
  return { root: absolute, skills, files, directories, stale };
}
