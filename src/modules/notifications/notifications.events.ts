import type { AppDeps } from '../../app-deps'
import type { DomainEvent, DomainEventType, EventSubscriber } from '../../events/domain-events'
import { newReportsEnqueuer } from './notifications.new-reports'
import { createNotificationsRepository } from './notifications.repository'

export const FANOUT_KIND = 'notifications.fanout'

/** What the fan-out job needs to know about an event; the rest is read when it runs. */
export interface FanoutPayload {
  type: DomainEventType
  reportId: string
  actorId: string | null
  /** bug_updated: the status change, [old, new]. */
  status?: [string, string]
  /** bug_updated: the new assignee, when the assignment changed to someone. */
  assignee?: string
  /** comment_added */
  comment?: { body: string; internal: boolean; author: string | null }
}

const COMMENT_EXCERPT = 1000

/** The fan-out payload of an event, or null when it mails nobody. */
function payloadOf(event: DomainEvent): FanoutPayload | null {
  const base = { type: event.type, reportId: event.reportId, actorId: event.actorId }
  if (event.type === 'bug_created') return base
  if (event.type === 'comment_added') {
    const d = event.data as { body?: unknown; is_internal?: unknown; author_name?: unknown }
    return {
      ...base,
      comment: { body: String(d.body ?? '').slice(0, COMMENT_EXCERPT), internal: d.is_internal === true, author: typeof d.author_name === 'string' ? d.author_name : null },
    }
  }
  const status = event.changes?.status as [string, string] | undefined
  const assignee = event.changes?.assigned_to?.[1]
  if (!status && typeof assignee !== 'string') return null
  return { ...base, ...(status ? { status } : {}), ...(typeof assignee === 'string' && assignee ? { assignee } : {}) }
}

/**
 * Event subscriber: in the change's transaction, makes creators and commenters follow the report
 * and enqueues one fan-out job that picks recipients and writes the mails later, so a request
 * never builds hundreds of mails and a rolled-back change mails nobody.
 */
export function domainEventSubscriber(deps: Pick<AppDeps, 'db' | 'clock' | 'jobs'>): EventSubscriber {
  const enqueueNewReports = newReportsEnqueuer(deps)
  return async (tx, event) => {
    // Reports from game clients (no actor) are mailed per minute, not one by one.
    if (event.type === 'bug_created' && !event.actorId) return enqueueNewReports(event)
    if (event.actorId && event.type !== 'bug_updated') await createNotificationsRepository({ db: tx }).follow(event.reportId, event.actorId, deps.clock.now())
    const payload = payloadOf(event)
    if (payload) await deps.jobs.enqueue(tx, { kind: FANOUT_KIND, payload })
  }
}
