/**
 * @module bench/lib/procfs — what the kernel says about a server process (Linux /proc, proc(5)): the CPU time it
 * has used (utime + stime of /proc/<pid>/stat, every thread of the process, in clock ticks), its resident set
 * (VmRSS of /proc/<pid>/status) and where the resident memory is (anonymous: the heaps; file-backed: the node
 * binary and the mapped libraries; /proc/<pid>/smaps_rollup). The CPU time a server spends per request is
 * read from here: the load generator and the bench run in other processes, so it is the server's own.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second (`getconf CLK_TCK`; 100 on Linux when it cannot be asked). */
const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * CPU seconds (user + system) the process `pid` has used so far; NaN when it is gone. With `reaped`, also the
 * time of its children that have exited and been waited for (cutime + cstime), so that a reading of a server
 * and its live children loses nothing when a child exits between two readings.
 */
export function cpuSeconds(pid: number, { reaped = false } = {}): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is parenthesised and may hold spaces: count the fields after its `)`.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 to 17 of proc(5), utime, stime, cutime and cstime: indexes 11 to 14 after the name.
    const children = reaped ? Number(fields[13]) + Number(fields[14]) : 0;
    return (Number(fields[11]) + Number(fields[12]) + children) / CLK_TCK;
  } catch {
    return NaN;
  }
}

/** The resolution of `cpuSeconds` (one clock tick), for judging how many requests a reading needs. */
export const CPU_TICK_S = 1 / CLK_TCK;

/** Resident set size in MiB of the process `pid` alone. */
export function rssMiB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
  } catch {
    return NaN;
  }
}

/** Where the resident memory of `pid` is, in MiB: anonymous (V8 and native heaps, stacks) and file-backed (code). */
export interface MemoryBreakdown {
  readonly rss: number;
  readonly anonymous: number;
  readonly file: number;
}

export function memoryBreakdown(pid: number): MemoryBreakdown | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? NaN);
    const rss = kib('Rss');
    const anonymous = kib('Anonymous');
    return { rss: rss / 1024, anonymous: anonymous / 1024, file: (rss - anonymous) / 1024 };
  } catch {
    return undefined;
  }
}

/**
 * Resident set size in MiB of `pid` and all its descendants (a server that starts helper processes, as tsx
 * starts esbuild's, counts them here and not in `rssMiB`).
 */
export function treeRssMiB(pid: number): number {
  let kib = 0;
  const visit = (p: number) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      kib += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      for (const task of readdirSync(`/proc/${p}/task`)) {
        const children = readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim();
        for (const c of children ? children.split(/\s+/) : []) visit(Number(c));
      }
    } catch {
      /* gone */
    }
  };
  visit(pid);
  return kib / 1024;
}

/** The machine's CPU time so far, in clock ticks over all CPUs (the `cpu` line of /proc/stat, proc(5)). */
export interface MachineTicks {
  /** Every state's ticks (user, nice, system, idle, iowait, irq, softirq, steal). */
  readonly total: number;
  /** Ticks the hypervisor ran something else while a virtual CPU of this machine wanted to run. */
  readonly steal: number;
}

export function machineTicks(): MachineTicks | undefined {
  try {
    const fields = /^cpu\s+(.*)$/m.exec(readFileSync('/proc/stat', 'utf8'))![1]!.trim().split(/\s+/).map(Number);
    // user nice system idle iowait irq softirq steal (guest and guest_nice are already in user and nice).
    return { total: fields.slice(0, 8).reduce((a, b) => a + b, 0), steal: fields[7] ?? 0 };
  } catch {
    return undefined;
  }
}

/** The share of the machine's CPU time stolen by the hypervisor between two readings, in percent. */
export function stealPercent(before: MachineTicks | undefined, after: MachineTicks | undefined): number | undefined {
  if (!before || !after || after.total <= before.total) return undefined;
  return (100 * (after.steal - before.steal)) / (after.total - before.total);
}
