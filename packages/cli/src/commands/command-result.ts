/** Where a command's action leaves its exit code. */
export interface CommandResult {
  code: number;
}
