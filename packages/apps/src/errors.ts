/**
 * The catalogue of @typemcp/apps' stable codes (docs/errors.md says what each means and how to
 * fix it).
 */

/** Stable codes of the errors @typemcp/apps produces (`error.code`). @publicApi */
export const AppsErrorCode = {
  /** An `@App`, `@AppOnly` or `@AppView` whose options or target cannot work (thrown when the server is built). */
  InvalidApp: 'TYPEMCP_ERR_INVALID_APP',
  /** A view's reader answered with other than exactly one content item (the read fails, masked). */
  ViewContents: 'TYPEMCP_APP_VIEW_CONTENTS',
  /** The bundler could not make a view's single HTML file (its entry, an import, a syntax error). */
  BundleFailed: 'TYPEMCP_ERR_APP_BUNDLE',
} as const;

/** A TypeMCP apps error: a stable `code` and a message that says what to fix. @publicApi */
export class AppsError extends Error {
  override readonly name = 'AppsError';

  constructor(
    /** One of {@link AppsErrorCode}. */
    readonly code: (typeof AppsErrorCode)[keyof typeof AppsErrorCode],
    message: string,
  ) {
    super(message);
  }
}
