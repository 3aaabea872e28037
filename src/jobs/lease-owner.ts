import { hostname } from 'node:os'
import { randomToken } from '../lib/ids'

/** A runner's name on the leases it takes: the host and process it runs in, and a token of its own. */
export function newLeaseOwner(): string {
  return `runner:${hostname()}:${process.pid}:${randomToken(6)}`
}

/**
 * True when the runner that took a lease is certainly gone, so its lease need not run out first: it
 * ran on this host, and its process has ended or is this very process (an earlier runner of it, since
 * replaced by `self`). A lease of another host, or of a live process here (a second server sharing the
 * database), is never judged gone: only its expiry frees it.
 */
export function leaseOwnerGone(owner: string, self: string): boolean {
  const m = /^runner:(.*):(\d+):[^:]+$/.exec(owner)
  if (!m || m[1] !== hostname() || owner === self) return false
  const pid = Number(m[2])
  return pid === process.pid || !processAlive(pid)
}

/** Whether a process of this id runs on this host (one we may not signal still runs). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM'
  }
}
