import type { AppDeps } from '../../app-deps'
import type { DomainEventType, EventSubscriber } from '../../events/domain-events'
import type { JobHandler } from '../../jobs/jobs.types'
import { derivedId, newId } from '../../lib/ids'
import { projectCardOf } from '../projects/projects.repository'
import { reportPageUrl } from '../reports/report-links'
import { DELIVER_KIND, DELIVERY_ATTEMPTS } from './webhooks.delivery'
import { anyWebhookTakes, createWebhooksRepository } from './webhooks.repository'

export const FANOUT_KIND = 'webhook.fanout'

/** One event as the writer's transaction leaves it for the fan-out job. */
export interface FanoutPayload {
  /** Random per event: with the webhook id it makes the delivery id, so a re-run fan-out writes nothing new. */
  id: string
  event: DomainEventType
  projectId: string
  /** When the event happened (epoch ms): the body's timestamp, and webhooks created later get nothing. */
  at: number
  slug: string
  /** The report or comment as the API shows it. */
  data: Record<string, unknown>
}

/** The exact bytes every delivery of the event sends and signs: `{event, timestamp, data}` with the project slug. */
export const deliveryBody = (p: FanoutPayload) => JSON.stringify({ event: p.event, timestamp: new Date(p.at).toISOString(), data: { ...p.data, project_slug: p.slug } })

/**
 * The event's data with `url`, the report's page in the dashboard, on the report it carries (a
 * comment's `report`), so a receiver can link back to it. Taken when the event happens: a later
 * slug change does not rewrite what was sent.
 */
function withReportUrl(type: DomainEventType, data: Record<string, unknown>, publicUrl: string, slug: string): Record<string, unknown> {
  const link = (r: Record<string, unknown> | undefined) => (r && Number.isInteger(r.report_number) ? { ...r, url: reportPageUrl(publicUrl, slug, r.report_number as number) } : r)
  return type === 'comment_added' ? { ...data, report: link(data.report as Record<string, unknown> | undefined) } : link(data)!
}

/**
 * The event subscriber. It runs in the writer's transaction on every report write, so it only asks
 * (prepared lookups) whether any webhook of the project takes the event type and, if so, writes
 * one `webhook.fanout` job: it commits or rolls back with the change, and the per-webhook rows are
 * written later by the job thread.
 */
export function fanoutEnqueuer(deps: Pick<AppDeps, 'db' | 'clock' | 'jobs' | 'config'>): EventSubscriber {
  const enqueueFanout = deps.jobs.prepare(deps.db, FANOUT_KIND)
  return async (tx, event) => {
    if (!(await anyWebhookTakes(tx, event.projectId, event.type))) return
    // The webhook's foreign key keeps its project in place within this transaction.
    const { slug } = (await projectCardOf(tx, event.projectId))!
    const payload: FanoutPayload = { id: newId(), event: event.type, projectId: event.projectId, at: deps.clock.now().getTime(), slug, data: withReportUrl(event.type, event.data, deps.config.publicUrl, slug) }
    await enqueueFanout({ payload })
  }
}

/**
 * The `webhook.fanout` job: in one write, one delivery row (the body stored once per delivery, so
 * retries resend the same bytes) and one `webhook.deliver` job per webhook that takes the event and
 * existed when it happened. Delivery ids are derived and both inserts ignore repeats, so a fan-out
 * run again after a crash adds nothing.
 */
export function fanoutHandler(deps: AppDeps): JobHandler<FanoutPayload> {
  const enqueueDelivery = deps.jobs.prepare(deps.db, DELIVER_KIND, { maxAttempts: DELIVERY_ATTEMPTS })
  const repo = createWebhooksRepository({ db: deps.db })
  return {
    kind: FANOUT_KIND,
    async run(p) {
      const payload = deliveryBody(p)
      const at = new Date(p.at)
      await deps.db.write(async () => {
        // Read inside the write: a webhook deleted meanwhile is simply not a target.
        const targets = await repo.targets(p.projectId, p.event, at)
        const now = deps.clock.now()
        const ids = targets.map((webhookId) => ({ id: derivedId(p.id, webhookId), webhookId }))
        await repo.insertDeliveries(ids.map(({ id, webhookId }) => ({ id, webhookId, event: p.event, payload, nextAttemptAt: now, createdAt: at, updatedAt: now })))
        await enqueueDelivery(ids.map(({ id }) => ({ payload: { deliveryId: id }, idempotencyKey: `${DELIVER_KIND}:${id}` })))
      })
    },
  }
}
