// What every bench gives the processes it measures, and how it reads their CPU time.
import fs from 'node:fs';
import os from 'node:os';

/**
 * The environment of a measured process: PATH and HOME only, plus `extra` (NODE_ENV,
 * NODE_COMPILE_CACHE, a port...). Never the bench's own environment: variables such as
 * NODE_EXTRA_CA_CERTS (read and parsed by every node at start, about 30-60 ms here) would slow
 * each contender by a fixed amount, bare node most in proportion, and shrink every ratio to it.
 * @param {Record<string, string | undefined>} [extra]
 */
export function serverEnv(extra = {}) {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? os.homedir(), ...extra };
}

const TICKS_PER_SECOND = 100;

/** ms of CPU (user + system) of every live thread of `pid`, from the scheduler's nanosecond counters; undefined without them. */
function schedstatMs(pid) {
  let ns = 0;
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return ns / 1e6;
}

/** ms of CPU (user + system) of the whole process from /proc/<pid>/stat, in 10 ms ticks. */
function statMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/**
 * CPU time (user + system) process `pid` has used so far, in ms (Linux /proc; undefined
 * elsewhere or once it is gone). Unlike wall time it barely moves when other processes share the
 * machine. `precise`: summed from the per-thread scheduler counters (nanoseconds; what a thread
 * that already ended used is not in them: right for a start-up, where node's threads all live
 * on), else /proc/<pid>/stat's 10 ms ticks (every thread, ended ones included: right over a
 * long load).
 * @param {number | undefined} pid
 * @param {{ precise?: boolean }} [options]
 */
export function cpuMsOf(pid, { precise = false } = {}) {
  if (pid === undefined) return undefined;
  try {
    return precise ? schedstatMs(pid) : statMs(pid);
  } catch {
    return undefined;
  }
}
