/**
 * The machine a benchmark ran on, printed with its figures: throughput means little without the
 * core count, the CPU and how busy the machine already was.
 */
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
