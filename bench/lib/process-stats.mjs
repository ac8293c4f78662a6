// What a running process has used so far, read from /proc (Linux): resident memory and CPU time.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Peak (VmHWM) and current (VmRSS) resident memory in MB, and threads; undefined once the process is gone. */
export function rssOf(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1]);
    const threads = Number(/^Threads:\s+(\d+)/m.exec(text)?.[1]);
    return { hwmMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024, threads };
  } catch {
    return { hwmMb: undefined, rssMb: undefined, threads: undefined };
  }
}

export const peakRssMbOf = (pid) => rssOf(pid).hwmMb;

let clockTicks;
function ticksPerSecond() {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** CPU time (user + system, all threads) the process has used so far, in ms. */
export function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond();
  } catch {
    return undefined;
  }
}
