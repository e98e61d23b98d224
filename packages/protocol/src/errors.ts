/**
 * The catalogue of @typemcp/protocol's stable error codes: every `TYPEMCP_*` code the engine
 * throws is defined here once (docs/errors.md says what each means and how to fix it). The
 * numeric JSON-RPC codes sent on the wire are {@link ErrorCode} in jsonrpc/error-codes.ts.
 */

/**
 * Stable codes of the errors @typemcp/protocol throws (`error.code`).
 * @publicApi
 */
export const ProtocolErrorCode = {
  /** A construction option has a value the server cannot work with (InvalidOptionError). */
  InvalidOption: 'TYPEMCP_ERR_INVALID_OPTION',
  /** Two tools with one name (DefinitionError). */
  DuplicateTool: 'TYPEMCP_ERR_DUPLICATE_TOOL',
  /** Two resources or resource templates with one URI (DefinitionError). */
  DuplicateResource: 'TYPEMCP_ERR_DUPLICATE_RESOURCE',
  /** Two prompts with one name (DefinitionError). */
  DuplicatePrompt: 'TYPEMCP_ERR_DUPLICATE_PROMPT',
  /** setMethodHandler/setNotificationHandler on a method the engine handles, without `{ replace: true }` (DefinitionError). */
  BuiltinMethod: 'TYPEMCP_ERR_BUILTIN_METHOD',
  /** A tool's task options that cannot work: `retries` not a whole number, or retries of a task its handler starts (DefinitionError). */
  InvalidTaskOptions: 'TYPEMCP_ERR_INVALID_TASK_OPTIONS',
  /** wrapMethodHandler on a method that has no handler (DefinitionError). */
  NoMethodHandler: 'TYPEMCP_ERR_NO_METHOD_HANDLER',
  /** A resource template that is not a valid RFC 6570 template (DefinitionError). */
  InvalidUriTemplate: 'TYPEMCP_ERR_INVALID_URI_TEMPLATE',
  /** A 2026-07-28 handler's pending question after its request was answered with input_required (InputRequiredError). */
  InputRequired: 'TYPEMCP_INPUT_REQUIRED',
  /** A rate limiter refused a call (RateLimitedError, JSON-RPC -32004); `data.retryAfterMs` says when to retry. */
  RateLimited: 'TYPEMCP_RATE_LIMITED',
  /** `userState(name, options)` with a name or option that cannot work (DefinitionError). */
  InvalidUserState: 'TYPEMCP_ERR_INVALID_USER_STATE',
  /** Per-user state used by a request with no user: no principal and no legacy session (UserStateError). */
  UserStateAnonymous: 'TYPEMCP_USER_STATE_ANONYMOUS',
  /** A per-user state value over its `maxBytes` as JSON (UserStateError); nothing was written. */
  UserStateTooLarge: 'TYPEMCP_USER_STATE_TOO_LARGE',
  /** `UserState.update` overtaken by other writes too many times in a row (UserStateError); nothing was written. */
  UserStateConflict: 'TYPEMCP_USER_STATE_CONFLICT',
  /** A request for a tool, resource or prompt whose scopes the caller's token lacks (InsufficientScopeError, JSON-RPC -32003). */
  InsufficientScope: 'TYPEMCP_INSUFFICIENT_SCOPE',
  /** An extension the engine cannot install: its identifier breaks SEP-2133's rules, or a part of it has the wrong shape (DefinitionError). */
  InvalidExtension: 'TYPEMCP_ERR_INVALID_EXTENSION',
  /** A second extension with an identifier already installed, or the engine's own tasks identifier (DefinitionError). */
  DuplicateExtension: 'TYPEMCP_ERR_DUPLICATE_EXTENSION',
  /** An extension adds a method that another extension or `setMethodHandler` already added (DefinitionError). */
  DuplicateMethod: 'TYPEMCP_ERR_DUPLICATE_METHOD',
} as const;

/** One of {@link ProtocolErrorCode}. */
export type ProtocolErrorCodeValue = (typeof ProtocolErrorCode)[keyof typeof ProtocolErrorCode];
