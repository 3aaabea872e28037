import type { AppDeps } from '../../app-deps'
import type { Query } from '../../db/client'
import type { EventSubscriber } from '../../events/domain-events'
import { DeferJob, type JobHandler } from '../../jobs/jobs.types'
import { HOUR } from '../../lib/clock'
import { newId } from '../../lib/ids'
import { readStoredSecret } from '../integrations/credentials.crypto'
import { chatMessage } from '../integrations/providers/chat-message'
import { PROVIDER_TIMEOUT_MS } from '../integrations/providers/provider-http'
import { ProviderError } from '../integrations/providers/provider.types'
import { projectCardOf } from '../projects/projects.repository'
import { postMessage } from './chat-channels.post'
import { CHANNEL_PROVIDERS } from './chat-channels.providers'
import { channelEventStatements, createChatChannelsRepository } from './chat-channels.repository'

export const POST_KIND = 'chat_channel.post'
/** The first try and the retries after 1, 5, 25 and 125 minutes (spec 4.7). */
export const POST_ATTEMPTS = 5
/** How long a paused channel's delivery waits before it looks again; resuming releases it at once. */
const HOLD_MS = HOUR

const jobKey = (deliveryId: string) => `${POST_KIND}:${deliveryId}`

/**
 * The event subscriber: in the writer's transaction, one delivery (the rendered message) and one job
 * per active channel of the project subscribed to the event. Internal comments are never posted.
 */
export function chatChannelsSubscriber(deps: Pick<AppDeps, 'db' | 'clock' | 'jobs' | 'config'>): EventSubscriber {
  return async (tx, event) => {
    if (event.type === 'comment_added' && event.data.is_internal) return
    const statements = channelEventStatements(tx)
    if (!(await statements.anyActive(event.projectId))) return
    const channels = (await statements.activeChannels(event.projectId)).filter((c) => c.eventTypes.includes(event.type))
    if (!channels.length) return
    const project = (await projectCardOf(tx, event.projectId))!
    const report = (event.type === 'comment_added' ? event.data.report : event.data) as Record<string, unknown>
    const comment = event.type === 'comment_added' ? (({ report: _r, ...c }) => c)(event.data) : undefined
    const message = chatMessage({ event: event.type, action: 'post', payload: { project, report, changes: event.changes, comment, at: deps.clock.now().getTime() } }, deps.config.publicUrl)
    const now = deps.clock.now()
    const rows = channels.map((c) => ({ id: newId(), channelId: c.id, event: event.type, reportId: event.reportId, body: JSON.stringify(CHANNEL_PROVIDERS[c.provider].render(message, event.type)), createdAt: now, updatedAt: now }))
    await statements.insertDeliveries(rows)
    await deps.jobs.enqueue(tx, rows.map(({ id }) => ({ kind: POST_KIND, payload: { deliveryId: id }, idempotencyKey: jobKey(id), maxAttempts: POST_ATTEMPTS })))
  }
}

/** Lets a resumed channel's held deliveries run now instead of at the end of their hold; call it inside the write that `tx` is. */
export async function releaseHeld(deps: Pick<AppDeps, 'db' | 'jobs'>, tx: Query, channelId: string): Promise<void> {
  const pending = await createChatChannelsRepository({ db: deps.db }).pendingDeliveryIds(channelId)
  await deps.jobs.runNow(tx, pending.map(jobKey))
}

/**
 * The `chat_channel.post` job: posts one stored message and records the outcome on its delivery.
 * A paused channel's delivery is put back without using an attempt (DeferJob) until it is resumed;
 * a refusal is thrown so the job runner retries it after 1, 5, 25 and 125 minutes.
 */
export function postHandler(deps: AppDeps): JobHandler<{ deliveryId: string }> {
  return {
    kind: POST_KIND,
    timeoutMs: PROVIDER_TIMEOUT_MS + 2_000,
    maxAttempts: POST_ATTEMPTS,
    async run({ deliveryId }, ctx) {
      const repo = createChatChannelsRepository({ db: deps.db })
      const found = await repo.deliveryWithChannel(deliveryId)
      // Gone with its channel, or answered before a crash kept the job from finishing.
      if (!found || found.d.status !== 'pending') return
      const { d, c } = found
      if (!c.isActive) throw new DeferJob(HOLD_MS)
      let failure: ProviderError | null = null
      let status: number | null = null
      let response: string | null = null
      try {
        const url = await readStoredSecret(deps.secrets, c.webhookUrlEnc, c.id, 'webhook URL', 'enter it again (PATCH webhook_url)')
        const answer = await postMessage(deps, c.provider, url, d.body, ctx.signal)
        status = answer.status
        response = answer.text
      } catch (err) {
        failure = ProviderError.from(err)
        status = failure.statusCode
        response = failure.response
      }
      const last = ctx.attempt >= ctx.maxAttempts
      await repo.recordDelivery(deliveryId, {
        status: failure ? (last ? 'failed' : 'pending') : 'succeeded',
        attempts: d.attempts + 1,
        lastStatusCode: status,
        lastError: failure?.message ?? null,
        response,
        updatedAt: deps.clock.now(),
      })
      if (failure) throw failure
    },
  }
}
