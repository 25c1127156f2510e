/**
 * The machine a benchmark ran on, printed with its figures: throughput means little without the
 * core count, the CPU and how busy the machine already was.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg, totalmem } from 'node:os';

export interface Machine {
  /** Cores this process may use (what `nproc` prints). */
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  /** 1-minute load average when the benchmark started: above the core count, figures are noisy. */
  load: number;
}

/** The first `model name` of /proc/cpuinfo's text. */
export function cpuModel(cpuinfo: string): string {
  return /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? 'unknown';
}

export function machine(): Machine {
  let cpuinfo = '';
  try {
    cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    // Not Linux: the model stays unknown; the rest comes from Node.
  }
  return {
    cores: availableParallelism(),
    cpuModel: cpuModel(cpuinfo),
    memoryGiB: totalmem() / 2 ** 30,
    load: loadavg()[0] ?? 0,
  };
}

export function describeMachine(m: Machine): string {
  return `${m.cores} cores (nproc), ${m.cpuModel}, ${m.memoryGiB.toFixed(1)} GiB memory, load average ${m.load.toFixed(2)} at start`;
}

/** Resident memory of a process in bytes (Linux), or undefined. */
export function residentBytes(pid: number): number | undefined {
  try {
    const kB = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kB === undefined ? undefined : Number(kB) * 1024;
  } catch {
    return undefined;
  }
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** User + system time from /proc/PID/stat's text, in seconds (the command name may contain spaces). */
export function parseCpuSeconds(stat: string, ticksPerSecond = CLOCK_TICKS): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command: state is field 3 of the full line, utime 14 and stime 15.
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

/**
 * CPU seconds a process has used (Linux), or undefined. Unlike requests/s, CPU per request barely
 * moves when other work shares the machine, so it is the steadier figure on a busy host.
 */
export function cpuSeconds(pid: number): number | undefined {
  try {
    return parseCpuSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}
