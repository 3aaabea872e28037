import type { Tx } from '../../db/client'
import { notificationFanouts } from './notifications.table'

/**
 * Claims job `jobId`'s mails inside the transaction that writes them: false when an earlier run
 * already wrote them (the runner crashed before marking the job done), so nobody is mailed twice.
 */
export function claimOnce(tx: Tx, jobId: number, now: Date): boolean {
  const rows = tx.insert(notificationFanouts).values({ jobId, createdAt: now }).onConflictDoNothing().returning().all()
  return rows.length === 1
}
