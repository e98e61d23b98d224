/**
 * Optional parts of the templates: a template file keeps a block between `// [feature]` and
 * `// [/feature]` (`#` in Dockerfiles and YAML) only when the project has that feature, and a
 * `[!feature]` block only when it has not.
 */
import type { ProjectOptions } from './options.js';

/** A `// [feature]` (or `# [feature]`) line opens a block kept only with that feature, `[!feature]` one kept only without it; `[/feature]` closes it. */
const FEATURE_MARK = /^\s*(?:\/\/|#)\s*\[(\/?)(!?)([a-z-]+)\]\s*$/;

/** `text` with the blocks of features the project does not have taken out, and every mark line. */
export function selectFeatures(text: string, features: ReadonlySet<string>): string {
  const kept: string[] = [];
  const open: boolean[] = [];
  for (const line of text.split('\n')) {
    const mark = FEATURE_MARK.exec(line);
    if (!mark) {
      if (open.every(Boolean)) kept.push(line);
    } else if (mark[1]) open.pop();
    else open.push(features.has(mark[3]) !== (mark[2] === '!'));
  }
  return kept.join('\n');
}

/** The features a project has, for {@link selectFeatures}: its transport (`stdio`, `http`, `both`), template, `proxy`, `redis`, `vendor`. */
export function featuresOf(options: Pick<ProjectOptions, 'template' | 'transport'> & Partial<Pick<ProjectOptions, 'auth' | 'redis' | 'from'>>): Set<string> {
  const features = new Set<string>([options.template, options.transport]);
  if (options.transport !== 'stdio') features.add('http');
  if (options.auth === 'proxy') features.add('proxy');
  if (options.redis) features.add('redis');
  if (options.from !== undefined) features.add('vendor');
  return features;
}
