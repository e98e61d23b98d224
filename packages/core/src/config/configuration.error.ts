import { CoreErrorCode } from '../errors.js';

/** One fault of a configuration: the variable and what is wrong with it (never its value). @publicApi */
export interface ConfigurationProblem {
  /** The environment variable, e.g. `PORT`. */
  readonly variable: string;
  /** What is wrong with it, e.g. `must be an integer`. */
  readonly message: string;
}

/**
 * A configuration class whose environment does not pass its validation: one problem per bad or
 * missing variable, listed in the message, one a line. No value is ever part of it, so it can be
 * printed whatever the variables hold. @publicApi
 */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
  readonly code = CoreErrorCode.InvalidConfiguration;

  constructor(
    readonly configuration: string,
    readonly problems: readonly ConfigurationProblem[],
  ) {
    super(
      `Invalid configuration (${configuration}): ${problems.length} problem${problems.length === 1 ? '' : 's'}\n` +
        problems.map((p) => `  - ${p.variable}: ${p.message}`).join('\n'),
    );
  }
}
