/** Package names: npm's rules, and a valid name made from a directory name. */
import * as path from 'node:path';

const VALID = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/** Why `name` cannot be an npm package name, or undefined when it can. */
export function invalidPackageName(name: string): string | undefined {
  if (!name) return 'a package name cannot be empty';
  if (name.length > 214) return 'a package name has at most 214 characters';
  if (!VALID.test(name)) return `"${name}" is not a valid npm package name: use lowercase letters, digits, "-", "." or "_"`;
  return undefined;
}

/** A valid package name made from the last segment of `directory` ("My Server" -> "my-server"). */
export function packageNameFrom(directory: string): string {
  const base = path.basename(path.resolve(directory));
  const name = base
    .toLowerCase()
    .replace(/[^a-z0-9-._~]+/g, '-')
    .replace(/^[-._]+|-+$/g, '');
  return name || 'mcp-server';
}
