import { existsSync, readFileSync } from 'node:fs'

// /proc counts CPU time in USER_HZ ticks, 100 a second on Linux whatever the kernel's own tick rate.
const TICKS_PER_SECOND = 100
const OWN_THREAD = '/proc/thread-self/stat'
const perThread = existsSync(OWN_THREAD)

/**
 * Milliseconds of CPU this thread has used (Linux; wall time elsewhere), for tests that check a
 * hostile input costs bounded work. CPU time does not grow when the machine is busy, as wall time
 * does: the suite runs three files at once on two cores, and a 200 ms bound on wall time failed there.
 * Its resolution is one tick, 10 ms.
 */
export function threadCpuMs(): number {
  if (!perThread) return performance.now()
  const stat = readFileSync(OWN_THREAD, 'utf8')
  // The fields after the parenthesised name: utime is the 14th of the line, stime the 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND
}

/** The CPU milliseconds `fn` takes on this thread (see threadCpuMs). */
export function cpuMsOf(fn: () => unknown): number {
  const started = threadCpuMs()
  fn()
  return threadCpuMs() - started
}
