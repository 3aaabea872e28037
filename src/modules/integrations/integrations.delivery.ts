import type { AppDeps } from '../../app-deps'
import type { Query } from '../../db/client'
import { defaultBackoff } from '../../jobs/jobs.runner'
import { DeferJob, type JobHandler } from '../../jobs/jobs.types'
import { HOUR } from '../../lib/clock'
import { newId } from '../../lib/ids'
import { providerLink } from '../../net/web-url'
import { readStoredSecret } from './credentials.crypto'
import { createIntegrationsRepository, type Integration } from './integrations.repository'
import { PROVIDERS } from './providers/catalog'
import { PROVIDER_TIMEOUT_MS } from './providers/provider-http'
import { type DeliveryPayload, type DeliveryResult, type ExternalLink, ProviderError, type ProviderContext } from './providers/provider.types'

export const DELIVER_KIND = 'integration.deliver'
/** The first try and the retries after 1, 5, 25 and 125 minutes (spec 4.7). */
export const DELIVERY_ATTEMPTS = 5
/** How long a paused connection's delivery waits before it looks again; resuming releases it at once. */
const HOLD_MS = HOUR

type Deps = Pick<AppDeps, 'db' | 'jobs' | 'clock'>
interface NewDelivery {
  id?: string
  integrationId: string
  event: string
  action: string
  reportId: string | null
  payload: DeliveryPayload
}

const jobKey = (deliveryId: string) => `${DELIVER_KIND}:${deliveryId}`
const repo = (deps: Pick<AppDeps, 'db'>) => createIntegrationsRepository({ db: deps.db })

/** The delivery row of `d`, due now. */
function deliveryRow(deps: Pick<AppDeps, 'clock'>, d: NewDelivery) {
  const now = deps.clock.now()
  return { id: d.id ?? newId(), integrationId: d.integrationId, event: d.event, action: d.action, reportId: d.reportId, payload: d.payload as unknown as Record<string, unknown>, nextAttemptAt: now, createdAt: now, updatedAt: now }
}

const enqueueJob = (deps: Pick<AppDeps, 'jobs'>, tx: Query, deliveryId: string) => deps.jobs.enqueue(tx, { kind: DELIVER_KIND, payload: { deliveryId }, idempotencyKey: jobKey(deliveryId), maxAttempts: DELIVERY_ATTEMPTS })

/**
 * Records one delivery and its job in one write, or in the caller's (event subscribers and alert
 * hooks: a write inside a write joins it); `id` makes a repeated call write nothing.
 */
export async function queueDelivery(deps: Deps, d: NewDelivery): Promise<void> {
  const row = deliveryRow(deps, d)
  await deps.db.write(async (tx) => {
    if (await repo(deps).insertDelivery(row)) await enqueueJob(deps, tx, row.id)
  })
}

/** Lets a resumed connection's held deliveries run now instead of at the end of their hold; call it inside the write that `tx` is. */
export async function releaseHeld(deps: Deps, tx: Query, integrationId: string, now: Date): Promise<void> {
  const pending = await repo(deps).pendingDeliveryIds(integrationId)
  if (!pending.length) return
  await deps.jobs.runNow(tx, pending.map(jobKey))
  await repo(deps).duePending(integrationId, now)
}

/** The provider context of a stored connection: its credential decrypted, its config. */
export async function contextOf(deps: Pick<AppDeps, 'config' | 'clock' | 'logger' | 'secrets'>, row: Integration, signal?: AbortSignal): Promise<ProviderContext> {
  const secret = await readStoredSecret(deps.secrets, row.secretEnc, row.id, `credential of ${row.name}`, 'enter it again (PATCH secret)')
  return { deps, secret, config: row.config, signal }
}

/** The link a connection made for a report earlier (a tracker issue to move), or null. */
export async function linkOf(deps: Pick<AppDeps, 'db'>, integrationId: string, reportId: string | null): Promise<ExternalLink | null> {
  const l = reportId ? await repo(deps).linkOf(integrationId, reportId) : undefined
  return l ? { externalId: l.externalId, url: l.url, title: l.title, state: l.state } : null
}

/** Stores (or updates) the link a delivery made on its report; a URL that is not http(s) is not kept (providerLink). */
export async function saveLink(deps: Pick<AppDeps, 'db'>, row: Integration, reportId: string, link: ExternalLink, now: Date): Promise<void> {
  const url = providerLink(link.url)
  await repo(deps).saveLink({ id: newId(), reportId, integrationId: row.id, provider: row.provider, externalId: link.externalId, url, title: link.title, state: link.state ?? null, createdAt: now, updatedAt: now })
}

/**
 * The `integration.deliver` job: one call to the provider, recorded as an attempt. A paused
 * connection's delivery is put back without using an attempt (DeferJob) until it is resumed;
 * a failure is thrown so the job runner retries it after 1, 5, 25 and 125 minutes.
 */
export function deliveryHandler(deps: AppDeps): JobHandler<{ deliveryId: string }> {
  return {
    kind: DELIVER_KIND,
    timeoutMs: PROVIDER_TIMEOUT_MS + 2_000,
    maxAttempts: DELIVERY_ATTEMPTS,
    async run({ deliveryId }, ctx) {
      const found = await repo(deps).deliveryWithIntegration(deliveryId)
      // Gone with its connection, or answered before a crash kept the job from finishing.
      if (!found || found.d.status !== 'pending') return
      const { d, i } = found
      if (!i.isActive) throw new DeferJob(HOLD_MS)
      const provider = PROVIDERS[i.provider]
      const started = performance.now()
      let result: DeliveryResult | null = null
      let failure: ProviderError | null = null
      try {
        if (!provider) throw new ProviderError(`provider ${i.provider} is not available`)
        const pc = await contextOf(deps, i, ctx.signal)
        result = await provider.deliver(pc, { event: d.event, action: d.action, payload: d.payload as unknown as DeliveryPayload }, await linkOf(deps, i.id, d.reportId))
      } catch (err) {
        failure = ProviderError.from(err)
      }
      const now = deps.clock.now()
      const last = ctx.attempt >= ctx.maxAttempts
      const attempt = d.attempts + 1
      const statusCode = result?.statusCode ?? failure?.statusCode ?? null
      const response = result?.response ?? failure?.response ?? null
      const durationMs = Math.round(performance.now() - started)
      await deps.db.write(async () => {
        await repo(deps).recordAttempt(
          { deliveryId, attempt, statusCode, durationMs, error: failure?.message ?? null, response, createdAt: now },
          {
            status: failure ? (last ? 'failed' : 'pending') : 'succeeded',
            attempts: attempt,
            lastStatusCode: statusCode,
            lastError: failure?.message ?? null,
            response,
            nextAttemptAt: failure && !last ? new Date(now.getTime() + defaultBackoff(ctx.attempt)) : null,
            updatedAt: now,
          },
        )
        if (result?.link && d.reportId) await saveLink(deps, i, d.reportId, result.link, now)
      })
      if (failure) throw failure
    },
  }
}
