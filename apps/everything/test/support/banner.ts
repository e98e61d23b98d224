/** What a stdio child of the everything server may print on stderr: its one start-up line, nothing else. */
export const ONLY_THE_BANNER =
  /^typemcp-everything \d+\.\d+\.\d+: serving MCP over stdio \(revisions \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d\); waiting for a client on stdin\. [^\n]+\n$/;
