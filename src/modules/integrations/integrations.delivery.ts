import { and, eq } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DbOrTx } from '../../db/client'
import { defaultBackoff } from '../../jobs/jobs.runner'
import { DeferJob, type JobHandler } from '../../jobs/jobs.types'
import { HOUR } from '../../lib/clock'
import { newId } from '../../lib/ids'
import { providerLink } from '../../net/web-url'
import { readStoredSecret } from './credentials.crypto'
import { integrationAttempts, integrationDeliveries, integrationLinks, integrations } from './integrations.table'
import { PROVIDERS } from './providers/catalog'
import { PROVIDER_TIMEOUT_MS } from './providers/provider-http'
import { type DeliveryPayload, type DeliveryResult, type ExternalLink, ProviderError, type ProviderContext } from './providers/provider.types'

export const DELIVER_KIND = 'integration.deliver'
/** The first try and the retries after 1, 5, 25 and 125 minutes (spec 4.7). */
export const DELIVERY_ATTEMPTS = 5
/** How long a paused connection's delivery waits before it looks again; resuming releases it at once. */
const HOLD_MS = HOUR

type Row = typeof integrations.$inferSelect

const jobKey = (deliveryId: string) => `${DELIVER_KIND}:${deliveryId}`

/** Records one delivery and its job in the caller's transaction; `id` makes a repeated enqueue write nothing. */
export function enqueueDelivery(deps: Pick<AppDeps, 'jobs' | 'clock'>, tx: DbOrTx, d: { id?: string; integrationId: string; event: string; action: string; reportId: string | null; payload: DeliveryPayload }): void {
  const id = d.id ?? newId()
  const now = deps.clock.now()
  const inserted = tx
    .insert(integrationDeliveries)
    .values({ id, integrationId: d.integrationId, event: d.event, action: d.action, reportId: d.reportId, payload: d.payload as unknown as Record<string, unknown>, nextAttemptAt: now, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning({ id: integrationDeliveries.id })
    .all()
  if (inserted.length) deps.jobs.enqueue(tx, { kind: DELIVER_KIND, payload: { deliveryId: id }, idempotencyKey: jobKey(id), maxAttempts: DELIVERY_ATTEMPTS })
}

/** Lets a resumed connection's held deliveries run now instead of at the end of their hold. */
export function releaseHeld(deps: Pick<AppDeps, 'jobs'>, tx: DbOrTx, integrationId: string, now: Date): void {
  const held = and(eq(integrationDeliveries.integrationId, integrationId), eq(integrationDeliveries.status, 'pending'))
  const pending = tx.select({ id: integrationDeliveries.id }).from(integrationDeliveries).where(held).all()
  if (!pending.length) return
  deps.jobs.runNow(tx, pending.map((p) => jobKey(p.id)))
  tx.update(integrationDeliveries).set({ nextAttemptAt: now }).where(held).run()
}

/** The provider context of a stored connection: its credential decrypted, its config. */
export async function contextOf(deps: Pick<AppDeps, 'config' | 'clock' | 'logger' | 'secrets'>, row: Row, signal?: AbortSignal): Promise<ProviderContext> {
  const secret = await readStoredSecret(deps.secrets, row.secretEnc, row.id, `credential of ${row.name}`, 'enter it again (PATCH secret)')
  return { deps, secret, config: row.config, signal }
}

/** The link a connection made for a report earlier (a tracker issue to move), or null. */
export function linkOf(db: DbOrTx, integrationId: string, reportId: string | null): ExternalLink | null {
  if (!reportId) return null
  const l = db.select().from(integrationLinks).where(and(eq(integrationLinks.integrationId, integrationId), eq(integrationLinks.reportId, reportId))).get()
  return l ? { externalId: l.externalId, url: l.url, title: l.title, state: l.state } : null
}

/** Stores (or updates) the link a delivery made on its report; a URL that is not http(s) is not kept (providerLink). */
export function saveLink(tx: DbOrTx, row: Row, reportId: string, link: ExternalLink, now: Date): void {
  const url = providerLink(link.url)
  tx.insert(integrationLinks)
    .values({ id: newId(), reportId, integrationId: row.id, provider: row.provider, externalId: link.externalId, url, title: link.title, state: link.state ?? null, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [integrationLinks.reportId, integrationLinks.integrationId],
      set: { externalId: link.externalId, url, title: link.title, state: link.state ?? null, updatedAt: now },
    })
    .run()
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
      const found = deps.db
        .select({ d: integrationDeliveries, i: integrations })
        .from(integrationDeliveries)
        .innerJoin(integrations, eq(integrations.id, integrationDeliveries.integrationId))
        .where(eq(integrationDeliveries.id, deliveryId))
        .get()
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
        result = await provider.deliver(pc, { event: d.event, action: d.action, payload: d.payload as unknown as DeliveryPayload }, linkOf(deps.db, i.id, d.reportId))
      } catch (err) {
        failure = ProviderError.from(err)
      }
      const now = deps.clock.now()
      const last = ctx.attempt >= ctx.maxAttempts
      const attempt = d.attempts + 1
      const statusCode = result?.statusCode ?? failure?.statusCode ?? null
      const response = result?.response ?? failure?.response ?? null
      deps.db.transaction((tx) => {
        tx.insert(integrationAttempts)
          .values({ deliveryId, attempt, statusCode, durationMs: Math.round(performance.now() - started), error: failure?.message ?? null, response, createdAt: now })
          .run()
        tx.update(integrationDeliveries)
          .set({
            status: failure ? (last ? 'failed' : 'pending') : 'succeeded',
            attempts: attempt,
            lastStatusCode: statusCode,
            lastError: failure?.message ?? null,
            response,
            nextAttemptAt: failure && !last ? new Date(now.getTime() + defaultBackoff(ctx.attempt)) : null,
            updatedAt: now,
          })
          .where(eq(integrationDeliveries.id, deliveryId))
          .run()
        if (result?.link && d.reportId) saveLink(tx, i, d.reportId, result.link, now)
      })
      if (failure) throw failure
    },
  }
}
