/** The create-typemcp command: flags, questions, generation, closing message. */
import { parseFlags } from './args.js';
import { createProject } from './create-project.js';
import { nextSteps } from './next-steps.js';
import type { Output } from './progress.js';
import { canAsk, CancelledError, resolveOptions } from './questions.js';
import type { GitOutcome } from './steps.js';
import { generatorVersion } from './versions.js';

const GIT_NOTES: Record<GitOutcome, string | undefined> = {
  committed: undefined,
  initialized: 'git: repository initialised; the first commit failed (is a git identity set?)',
  'inside-work-tree': 'git: skipped, the project is inside an existing git work tree',
  'no-git': 'git: skipped, git is not available',
};

/** Where the command reads and writes (the process's by default; tests pass their own). */
export interface RunIo {
  out: Output;
  /** Error messages. */
  err: (text: string) => void;
  /** Whether questions may be asked. */
  interactive: boolean;
  cwd: string;
}

function defaultIo(): RunIo {
  return {
    out: { stream: process.stdout, isTTY: Boolean(process.stdout.isTTY) },
    err: (text) => process.stderr.write(text),
    interactive: canAsk(),
    cwd: process.cwd(),
  };
}

/** Runs create-typemcp with `argv` (without node and script paths) and resolves with the exit code. @publicApi */
export async function run(argv: string[], io: RunIo = defaultIo()): Promise<number> {
  const parsed = parseFlags(argv, generatorVersion());
  if (parsed.kind === 'exit') {
    (parsed.code === 0 ? (s: string) => io.out.stream.write(s) : io.err)(parsed.output);
    return parsed.code;
  }
  try {
    const options = await resolveOptions(parsed.flags, io.interactive);
    const created = await createProject(options, io.out, io.cwd);
    const note = created.git && GIT_NOTES[created.git];
    io.out.stream.write(`${note ? `${note}\n` : ''}\n${nextSteps(options, io.cwd)}\n`);
    return 0;
  } catch (error) {
    io.err(`create-typemcp: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof CancelledError ? 130 : 1;
  }
}
