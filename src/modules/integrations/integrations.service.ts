import type { AppDeps } from '../../app-deps'
import { badGateway, badRequest, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { recordAudit } from '../activity/activity.service'
import { type PlanKey, requireFeature } from '../auth/plans'
import { encryptSecret, secretHint } from './credentials.crypto'
import { contextOf, releaseHeld } from './integrations.delivery'
import type { CreateIntegrationBody, TargetsBody, UpdateIntegrationBody } from './integrations.schemas'
import { createIntegrationsRepository, type Integration, type IntegrationChanges } from './integrations.repository'
import { PROVIDERS, providerInfo, providerInfos } from './providers/catalog'
import { type Provider, type ProviderContext, ProviderError } from './providers/provider.types'
import { releaseHeldSyncs } from './store-reviews.jobs'
import { syncNow } from './store-reviews.service'

interface ProjectRef {
  id: string
  accountId: string
  slug: string
  name: string
}

type Deps = Pick<AppDeps, 'db' | 'config' | 'clock' | 'logger' | 'secrets'>
const DELIVERIES_LISTED = 50
/** The event of the deliveries the test route records; no real event has this name. */
const TEST_EVENT = 'test'

const repo = (deps: Pick<AppDeps, 'db'>) => createIntegrationsRepository({ db: deps.db })

/** `GET /integrations/providers`: every provider with its events, plan, credential and config fields. */
export function providersView() {
  return providerInfos().map((p) => ({
    key: p.key,
    name: p.name,
    kind: p.kind,
    events: p.events,
    default_events: p.defaultEvents,
    ...(p.plan && { plan: p.plan }),
    default_min_priority: p.defaultMinPriority,
    credential: p.credential,
    config: p.config,
    available: p.key in PROVIDERS,
  }))
}

/** A connectable provider; 404 for an unknown key, 403 when `plan` lacks it, 400 for one this server cannot connect yet. */
function providerOf(key: string, plan?: PlanKey): Provider {
  const info = providerInfo(key)
  // The key comes from the path: echo a bounded piece of it, never the whole input.
  if (!info) throw notFound(`unknown provider ${key.length > 40 ? `${key.slice(0, 40)}…` : key}`)
  if (plan && info.key === 'jira') requireFeature(plan, 'jira')
  const p = PROVIDERS[key]
  if (!p) throw badRequest(`the ${info.name} integration is not available on this server yet`)
  return p
}

/** `config` with the provider's credential fields reduced to hints. */
function hintedConfig(providerKey: string, config: Record<string, unknown>): Record<string, unknown> {
  const secret = PROVIDERS[providerKey]?.secretConfig ?? []
  return Object.fromEntries(Object.entries(config).map(([k, v]) => [k, secret.includes(k) && typeof v === 'string' ? secretHint(v) : v]))
}

const view = (r: Integration, withSecrets: boolean) => ({
  id: r.id,
  provider: r.provider,
  provider_name: providerInfo(r.provider)?.name ?? r.provider,
  kind: providerInfo(r.provider)?.kind ?? null,
  name: r.name,
  secret_hint: r.secretHint,
  event_types: r.eventTypes,
  min_priority: r.minPriority,
  config: withSecrets ? r.config : hintedConfig(r.provider, r.config),
  is_active: r.isActive,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
})

/**
 * The project's connections, oldest first, optionally of one provider; the credential never leaves, and
 * credential-like config fields are hints unless the member manages integrations (`withSecrets`).
 */
export async function listIntegrations(deps: Pick<AppDeps, 'db'>, projectId: string, o: { provider?: string; withSecrets: boolean }) {
  return (await repo(deps).list(projectId, o.provider)).map((r) => view(r, o.withSecrets))
}

/** The event types a provider takes, in its order; its defaults when none are given; 400 naming the strangers. */
function eventTypesFor(p: Provider, requested: string[] | undefined): string[] {
  if (requested === undefined) return p.defaultEvents
  const unknown = requested.filter((e) => !(p.events as string[]).includes(e))
  if (unknown.length) throw badRequest(`event_types: ${p.name} does not take ${unknown.join(', ')} (it takes ${p.events.join(', ')})`)
  return p.events.filter((e) => requested.includes(e))
}

/** `ctx` without the config, for validation. */
const bare = (deps: Deps, secret: string) => ({ deps, secret })

/** Creates a connection: provider, plan, credential and config checked, the credential encrypted; with an audit entry. */
export async function createIntegration(deps: Deps, project: ProjectRef, plan: PlanKey, actorId: string, providerKey: string, body: CreateIntegrationBody) {
  const p = providerOf(providerKey, plan)
  const eventTypes = eventTypesFor(p, body.event_types)
  const config = await p.validate(bare(deps, body.secret), body.config ?? {})
  const id = newId()
  const secretEnc = await encryptSecret(deps.secrets, body.secret, id)
  const now = deps.clock.now()
  const name = body.name ?? p.name
  const minPriority = body.min_priority ?? p.defaultMinPriority
  await deps.db.write(async (tx) => {
    await repo(deps).insert({ id, projectId: project.id, provider: p.key, name, secretEnc, secretHint: secretHint(body.secret), eventTypes, minPriority, config, createdBy: actorId, createdAt: now, updatedAt: now })
    await recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action: 'integration.created', target: id, details: { provider: p.key, name, event_types: eventTypes, min_priority: minPriority } })
  })
  return { id }
}

/** One connection of the project to the provider; 404 when it has none of that id. */
async function findIntegration(deps: Pick<AppDeps, 'db'>, projectId: string, providerKey: string, id: string): Promise<Integration> {
  const row = await repo(deps).find(projectId, id, providerKey)
  if (!row) throw notFound('integration not found')
  return row
}

/** Changes a connection; `is_active` pauses it or resumes it (releasing held retries). Audit entry names the changed fields. */
export async function updateIntegration(deps: Deps & Pick<AppDeps, 'jobs'>, project: ProjectRef, plan: PlanKey, actorId: string, providerKey: string, id: string, body: UpdateIntegrationBody) {
  const row = await findIntegration(deps, project.id, providerKey, id)
  // Resuming needs the plan that carries the provider (an account may have moved down since).
  const p = providerOf(providerKey, body.is_active ? plan : undefined)
  const changed = Object.keys(body).filter((k) => (body as Record<string, unknown>)[k] !== undefined)
  if (!changed.length) throw badRequest('no valid fields to update (name, secret, event_types, min_priority, config, is_active)')
  const set: IntegrationChanges = {}
  if (body.secret !== undefined || body.config !== undefined) {
    const secret = body.secret ?? (await contextOf(deps, row)).secret
    set.config = await p.validate(bare(deps, secret), body.config ?? row.config)
    if (body.secret !== undefined) {
      set.secretEnc = await encryptSecret(deps.secrets, body.secret, row.id)
      set.secretHint = secretHint(body.secret)
    }
  }
  if (body.name !== undefined) set.name = body.name
  if (body.event_types !== undefined) set.eventTypes = eventTypesFor(p, body.event_types)
  if (body.min_priority !== undefined) set.minPriority = body.min_priority
  if (body.is_active !== undefined) set.isActive = body.is_active
  const now = deps.clock.now()
  await deps.db.write(async (tx) => {
    await repo(deps).update(row.id, { ...set, updatedAt: now })
    if (body.is_active && !row.isActive) {
      await releaseHeld(deps, tx, row.id, now)
      await releaseHeldSyncs(tx, row.id, now)
    }
    await recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action: 'integration.updated', target: row.id, details: { provider: row.provider, name: set.name ?? row.name, changed } })
  })
  return { message: body.is_active === false ? 'Integration paused' : body.is_active && !row.isActive ? 'Integration resumed' : 'Integration updated' }
}

/** Deletes a connection with its deliveries (queued ones find nothing and stop); links it made stay on the reports. */
export async function deleteIntegration(deps: Deps, project: ProjectRef, actorId: string, providerKey: string, id: string) {
  const row = await findIntegration(deps, project.id, providerKey, id)
  await deps.db.write(async (tx) => {
    await repo(deps).remove(row.id)
    await recordAudit(tx, deps.clock.now(), { accountId: project.accountId, projectId: project.id, actorId, action: 'integration.deleted', target: row.id, details: { provider: row.provider, name: row.name } })
  })
  return { message: 'Integration deleted' }
}

/** Runs a provider call for a route: the tool's refusal becomes a 502 carrying its answer. */
async function viaProvider<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    if (err instanceof ProviderError) throw badGateway(err.message)
    throw err
  }
}

/** The targets a pasted credential (or a saved connection's) reaches; 502 when the tool refuses it. */
export async function listTargets(deps: Deps, project: ProjectRef, providerKey: string, body: TargetsBody) {
  const p = providerOf(providerKey)
  if (!p.targets) throw badRequest(`${p.name} has no targets to pick: the credential names the destination`)
  let ctx: ProviderContext
  if (body.secret) ctx = { deps, secret: body.secret, config: body.config ?? {} }
  else if (body.id) {
    const row = await findIntegration(deps, project.id, providerKey, body.id)
    ctx = { ...(await contextOf(deps, row)), config: { ...row.config, ...body.config } }
  } else throw badRequest('secret or id is required')
  return viaProvider(() => p.targets!(ctx))
}

/**
 * Posts a test message (chat) or checks the credential and target, and records it in the deliveries
 * list (event `test`, `is_test`; not retried); 502 with the tool's answer when it refuses.
 */
export async function testIntegration(deps: Deps, project: ProjectRef, providerKey: string, id: string) {
  const row = await findIntegration(deps, project.id, providerKey, id)
  const p = providerOf(providerKey)
  const ctx = await contextOf(deps, row)
  const started = performance.now()
  let message: string | null = null
  let failure: ProviderError | null = null
  try {
    message = await p.test(ctx, { slug: project.slug, name: project.name })
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err
    failure = err
  }
  const now = deps.clock.now()
  const deliveryId = newId()
  const answer = { statusCode: failure?.statusCode ?? null, error: failure?.message ?? null, response: failure ? failure.response : message }
  await repo(deps).insertAnswered(
    { id: deliveryId, integrationId: row.id, event: TEST_EVENT, action: 'test', reportId: null, payload: {}, status: failure ? 'failed' : 'succeeded', attempts: 1, lastStatusCode: answer.statusCode, lastError: answer.error, response: answer.response, createdAt: now, updatedAt: now },
    { attempt: 1, ...answer, durationMs: Math.round(performance.now() - started), createdAt: now },
  )
  if (failure) throw badGateway(failure.message)
  return { message: message!, delivery_id: deliveryId }
}

/** `/sync` runs a store's review import now (store-reviews.service.ts); every other kind answers 400. */
export async function syncIntegration(deps: Deps & Pick<AppDeps, 'events'>, project: ProjectRef, providerKey: string, id: string) {
  return syncNow(deps, await findIntegration(deps, project.id, providerKey, id))
}

/** The 50 most recent deliveries of a connection, newest first, each with its attempts and the provider's answers. */
export async function listIntegrationDeliveries(deps: Pick<AppDeps, 'db'>, projectId: string, providerKey: string, id: string) {
  await findIntegration(deps, projectId, providerKey, id)
  const rows = await repo(deps).recentDeliveries(id, DELIVERIES_LISTED)
  const attempts = await repo(deps).attemptsOf(rows.map((r) => r.id))
  const iso = (d: Date | null) => (d ? d.toISOString() : null)
  return rows.map((d) => ({
    id: d.id,
    event: d.event,
    is_test: d.event === TEST_EVENT,
    action: d.action,
    report_id: d.reportId,
    status: d.status,
    attempt_count: d.attempts,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    response: d.response,
    next_attempt_at: iso(d.nextAttemptAt),
    created_at: iso(d.createdAt),
    updated_at: iso(d.updatedAt),
    attempts: attempts
      .filter((a) => a.deliveryId === d.id)
      .map((a) => ({ attempt: a.attempt, status_code: a.statusCode, duration_ms: a.durationMs, error: a.error, response: a.response, created_at: iso(a.createdAt) })),
  }))
}
