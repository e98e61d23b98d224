/**
 * RFC 6570 URI templates, matched in reverse: given a concrete URI, recover the variables.
 * Supports levels 1-4 expressions ({var}, {+var}, {#var}, {.var}, {/var}, {;var}, {?var},
 * {&var}, the explode modifier and prefixes); compiled to one regular expression at
 * registration.
 */
import { ProtocolErrorCode } from '../errors.js';
import { DefinitionError } from './definition.error.js';

/** Variables recovered from a URI: exploded variables arrive as arrays. */
export type UriVariables = Record<string, string | string[]>;

interface VarSpec {
  name: string;
  explode: boolean;
}

interface Part {
  operator: string;
  vars: VarSpec[];
}

const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&']);
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A compiled URI template. */
export class UriTemplate {
  private readonly regex: RegExp;
  private readonly parts: Part[] = [];
  /** The names of every variable, in template order. */
  readonly variableNames: string[] = [];

  constructor(readonly template: string) {
    let source = '^';
    let last = 0;
    for (const match of template.matchAll(/\{([^{}]*)\}/g)) {
      source += escapeRegExp(template.slice(last, match.index));
      last = match.index + match[0].length;
      source += this.compileExpression(match[1]);
    }
    const rest = template.slice(last);
    if (rest.includes('{') || rest.includes('}')) {
      throw new DefinitionError(ProtocolErrorCode.InvalidUriTemplate, `URI template "${template}" has an unbalanced brace.`);
    }
    this.regex = new RegExp(source + escapeRegExp(rest) + '$');
  }

  /** True when the text contains at least one `{expression}`. */
  static isTemplate(text: string): boolean {
    return /\{[^{}]+\}/.test(text);
  }

  private compileExpression(body: string): string {
    const operator = OPERATORS.has(body[0]) ? body[0] : '';
    const vars = (operator ? body.slice(1) : body).split(',').map((raw) => {
      const explode = raw.endsWith('*');
      const name = raw.replace(/\*$/, '').replace(/:\d+$/, '');
      if (!VARNAME.test(name)) {
        throw new DefinitionError(
          ProtocolErrorCode.InvalidUriTemplate,
          `URI template "${this.template}" has an invalid variable "${raw}"; use letters, digits and "_".`,
        );
      }
      this.variableNames.push(name);
      return { name, explode };
    });
    this.parts.push({ operator, vars });
    const exploded = vars.some((v) => v.explode);
    switch (operator) {
      case '?':
      case '&':
        return '((?:[?&][^#]*)?)';
      case ';':
        return '((?:;[^/?#]*)*)';
      case '/':
        return exploded ? '((?:/[^/?#]*)*)' : `((?:/[^/?#]*){0,${vars.length}})`;
      case '.':
        return exploded ? '((?:\\.[^/?#.]*)*)' : `((?:\\.[^/?#.]*){0,${vars.length}})`;
      case '#':
        return '(?:#([^]*))?';
      case '+':
        return '([^]*?)';
      default:
        // Simple expansion percent-encodes reserved characters, so a value never holds / ? # or a
        // comma unless several variables or an explode list share the expression.
        return vars.length > 1 || exploded ? '([^/?#]*?)' : '([^/?#,]+?)';
    }
  }

  /** The variables when `uri` matches this template, else undefined. */
  match(uri: string): UriVariables | undefined {
    const m = this.regex.exec(uri);
    if (!m) return undefined;
    const out: UriVariables = {};
    this.parts.forEach((part, i) => this.assign(part, m[i + 1] ?? '', out));
    return out;
  }

  private assign(part: Part, raw: string, out: UriVariables): void {
    const { operator, vars } = part;
    if (operator === '?' || operator === '&' || operator === ';') {
      const pairs = raw.split(operator === ';' ? ';' : /[?&]/).filter(Boolean);
      for (const v of vars) {
        const values = pairs.filter((p) => p === v.name || p.startsWith(v.name + '=')).map((p) => decode(p.slice(v.name.length + 1)));
        if (values.length) out[v.name] = v.explode ? values : values[0];
      }
      return;
    }
    if (raw === '') return;
    const prefixed = operator === '/' || operator === '.';
    const items = (prefixed ? raw.slice(1) : raw).split(prefixed ? operator : ',').map(decode);
    if (vars.length === 1) {
      const [v] = vars;
      out[v.name] = v.explode ? items : prefixed ? items[0] : decode(raw);
      return;
    }
    vars.forEach((v, i) => {
      if (items[i] !== undefined && items[i] !== '') out[v.name] = items[i];
    });
  }
}
