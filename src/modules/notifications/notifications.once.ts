import type { AppDeps } from '../../app-deps'
import { createNotificationsRepository } from './notifications.repository'

/**
 * Claims job `jobId`'s mails inside the transaction that writes them: false when an earlier run
 * already wrote them (the runner crashed before marking the job done), so nobody is mailed twice.
 */
export const claimOnce = (deps: Pick<AppDeps, 'db'>, jobId: number, now: Date): Promise<boolean> => createNotificationsRepository({ db: deps.db }).claim(jobId, now)
