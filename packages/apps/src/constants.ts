/** The identifiers the MCP Apps extension (SEP-1865, ext-apps 2026-01-26) fixes on the wire. */

/** The extension's identifier in `capabilities.extensions`. @publicApi */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';

/** The MIME type of a view's HTML, exactly (no space, no charset). @publicApi */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * The deprecated flat `_meta` key older hosts read for a tool's view (`_meta["ui/resourceUri"]`);
 * written beside `_meta.ui.resourceUri`, as the official helpers still do. @publicApi
 */
export const RESOURCE_URI_META_KEY = 'ui/resourceUri';
