/**
 * The launcher `typemcp build --bundle` writes as the bundle's entry (`dist/bundle/main.js`), and
 * the names of the files beside it. The bundle itself is `main.code.js` (self-contained: it runs
 * alone too); the launcher runs it from a V8 code cache, `main.code.js.cache`.
 *
 * Why a launcher: a bundled start is mostly compiling the bundle (its 1.2 MB are scanned before
 * any of it runs), and Node's own compile cache only keeps what is compiled before a module runs
 * (the top level), not the functions compiled while it starts. The launcher compiles the bundle
 * with `vm.Script` and, after the start, keeps `script.createCachedData()`: the bytecode of
 * everything the start compiled. The next start deserializes it instead of compiling
 * (bench/cold-start-bundle.mjs measures both).
 *
 * The cache file begins with one line: `typemcp-code-cache 1 <digest of the bundle> <node version>
 * <arch> <stage>`. A file for another bundle, Node or architecture is not used; V8 itself refuses
 * data made under other V8 flags (`cachedDataRejected`). The stage is `build` for the cache
 * `typemcp build` trains (a start that ends at `listen()`, as the manifest's) and `run` once a
 * started server has rewritten it with what it compiled in its first seconds; a missing or refused
 * cache is written the same way. Where the bundle's folder is read-only, the cache is kept in
 * `<tmp>/typemcp-code-cache-<uid>` (0700, read only when owned by this user).
 *
 * Off, with a plain `require` of the bundle: `TYPEMCP_CODE_CACHE=off` or
 * `NODE_DISABLE_COMPILE_CACHE=1`; under `--enable-source-maps` (Node maps stack traces of the
 * modules its own loader compiles, not of a `vm.Script`), where Node's compile cache is enabled
 * instead; on Bun and Deno. `TYPEMCP_CODE_CACHE=<folder>` keeps the cache there. `NODE_DEBUG=typemcp`
 * prints what the launcher did to stderr.
 */

/** The bundle's code file, beside the launcher: `dist/bundle/main.js` -> `dist/bundle/main.code.js`. */
export function codeFileOf(launcher: string): string {
  return launcher.replace(/(\.[cm]?js)?$/, '.code.js');
}

/** What the code cache's file name adds to the code file's (beside it) or to the digest (in a folder of caches). */
const CACHE_SUFFIX = '.cache';

/** The code cache beside the bundle's code file. */
export function codeCacheFileOf(codeFile: string): string {
  return `${codeFile}${CACHE_SUFFIX}`;
}

/**
 * `source` with every non-ASCII character written as a `\u` escape, or `source` itself where one
 * stands after an odd run of backslashes and so cannot be escaped: esbuild escapes strings,
 * templates and identifiers (its default ASCII charset) but not regular expression literals
 * (validator.js' alphabets), and an ASCII file is read as a one-byte string, which is cheaper to
 * decode and to scan. In a regular expression `\uXXXX` is the same character, with or without the
 * `u` flag (a surrogate pair escaped is one code point under `u`, two units without, as before).
 * Columns after such a character on its line move in the source map.
 */
export function asciiOnly(source: string): string {
  let unescapable = false;
  const escaped = source.replace(/(\\*)([\u0080-\uffff]+)/g, (_all, slashes: string, text: string) => {
    if (slashes.length % 2 === 1) unescapable = true;
    let out = '';
    for (let i = 0; i < text.length; i++) out += `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return slashes + out;
  });
  return unescapable ? source : escaped;
}

/** The launcher's source, for the code file `codeName` (beside it) whose digest is `digest`. */
export function launcherSource(codeName: string, digest: string): string {
  return `#!/usr/bin/env node
// Bundled by \`typemcp build --bundle\`: this launcher runs ${codeName} (the bundle, which also runs
// alone) from a V8 code cache, ${codeName}.cache, made at build and renewed after a start.
// TYPEMCP_CODE_CACHE=off (or NODE_DISABLE_COMPILE_CACHE=1) turns it off, =<folder> keeps it there;
// NODE_DEBUG=typemcp says what it did. Stack traces in the sources: node --enable-source-maps
// (the bundle is then loaded by Node's loader, with Node's compile cache).
'use strict';
(function launch(codeName, digest) {
  const fs = require('node:fs');
  const path = require('node:path');
  const Module = require('node:module');
  const env = process.env;
  const file = path.join(__dirname, codeName);
  const setting = env.TYPEMCP_CODE_CACHE;
  const train = env.TYPEMCP_CODE_CACHE_OUT;
  const debug = /\\btypemcp\\b/i.test(env.NODE_DEBUG || '') ? (line) => process.stderr.write('TYPEMCP ' + process.pid + ': ' + line + '\\n') : () => {};
  const off =
    setting === 'off' ? 'environment TYPEMCP_CODE_CACHE=off'
    : env.NODE_DISABLE_COMPILE_CACHE ? 'environment NODE_DISABLE_COMPILE_CACHE'
    : process.sourceMapsEnabled ? 'source maps enabled'
    : process.versions.bun || process.versions.deno || typeof Bun !== 'undefined' || typeof Deno !== 'undefined' ? 'not Node'
    : undefined;
  if (off && !train) {
    debug('code cache off (' + off + '): loading ' + file);
    if (off === 'source maps enabled' && typeof Module.enableCompileCache === 'function') {
      try { Module.enableCompileCache(); } catch {}
    }
    require(file);
    return;
  }
  const vm = require('node:vm');
  const bytes = fs.readFileSync(file);
  const text = require('node:buffer').isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const source = text.startsWith('#!') ? '//' + text.slice(2) : text; // its #! line, as Node's loader takes it
  const prefix = 'typemcp-code-cache 1 ' + digest + ' ' + process.version + ' ' + process.arch + ' ';
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const suffix = ${JSON.stringify(CACHE_SUFFIX)};
  const chosen = setting && setting !== 'off' ? path.resolve(setting) : undefined;
  /** The cache data in \`candidate\` and its stage, or undefined. */
  const read = (candidate, mustOwn) => {
    let data;
    try {
      const fd = fs.openSync(candidate, 'r');
      try {
        if (mustOwn && uid !== undefined && fs.fstatSync(fd).uid !== uid) return undefined;
        data = fs.readFileSync(fd);
      } finally { fs.closeSync(fd); }
    } catch { return undefined; }
    const newline = data.indexOf(10);
    if (newline < 0 || data.toString('latin1', 0, prefix.length) !== prefix) return undefined;
    return { file: candidate, stage: data.toString('latin1', prefix.length, newline), data: data.subarray(newline + 1) };
  };
  // [file, folder to create (with its mode) before writing, read only when owned by this user]
  const tmpDir = chosen ? undefined : path.join(require('node:os').tmpdir(), 'typemcp-code-cache-' + (uid === undefined ? 'user' : uid));
  const places = chosen
    ? [[path.join(chosen, digest + suffix), [chosen, undefined], false]]
    : [[file + suffix, undefined, false], [path.join(tmpDir, digest + suffix), [tmpDir, 0o700], true]];
  let found;
  if (!train) {
    for (const [candidate, , mustOwn] of places) {
      const entry = read(candidate, mustOwn);
      if (entry && (!found || entry.stage === 'run')) found = entry;
      if (found && found.stage === 'run') break;
    }
  }
  const options = { filename: file, cachedData: found && found.data };
  if (vm.constants && vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER) options.importModuleDynamically = vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  const script = new vm.Script(Module.wrap(source), options);
  const used = found !== undefined && !script.cachedDataRejected;
  debug(used ? 'code cache used: ' + found.file + ' (' + found.stage + ')' : found ? 'code cache refused by V8: ' + found.file : 'no code cache: compiling ' + file);
  if (!used || found.stage !== 'run') {
    let saved = false;
    const save = () => {
      if (saved) return;
      saved = true;
      let data;
      try { data = Buffer.concat([Buffer.from(prefix + (train ? 'build' : 'run') + '\\n', 'latin1'), script.createCachedData()]); } catch { return; }
      for (const [target, folder] of train ? [[path.resolve(train), undefined]] : places) {
        const temporary = target + '.' + process.pid + '.tmp';
        try {
          if (folder) fs.mkdirSync(folder[0], { recursive: true, mode: folder[1] });
          fs.writeFileSync(temporary, data, { mode: 0o600 });
          fs.renameSync(temporary, target);
          debug('code cache written: ' + target + ' (' + data.length + ' bytes)');
          return;
        } catch (error) {
          try { fs.rmSync(temporary, { force: true }); } catch {}
          debug('code cache not written to ' + target + ': ' + error.message);
        }
      }
    };
    if (!train) setTimeout(save, 2000).unref();
    process.once('exit', save);
  }
  const child = new Module(file, module);
  child.filename = file;
  child.paths = module.paths.slice();
  script.runInThisContext().call(child.exports, child.exports, Module.createRequire(file), child, file, __dirname);
})(${JSON.stringify(codeName)}, ${JSON.stringify(digest)});
`;
}
