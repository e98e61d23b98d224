/**
 * A definition-time mistake (a duplicate name, an invalid URI template...), thrown when
 * something is registered, never while serving. `code` is stable; the message says what to change.
 * @publicApi
 */
export class DefinitionError extends Error {
  override readonly name = 'DefinitionError';

  constructor(
    /** A stable code such as `TYPEMCP_ERR_DUPLICATE_TOOL`. */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
