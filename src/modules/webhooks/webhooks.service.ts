import type { AppDeps } from '../../app-deps'
import { badGateway, badRequest, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { assertPublicUrl, UnsafeTargetError } from '../../net/safe-fetch'
import { withoutSecrets } from '../../net/web-url'
import { recordAudit } from '../activity/activity.service'
import { secretHint } from '../integrations/credentials.crypto'
import { attempt, DELIVERY_TIMEOUT_MS } from './webhooks.delivery'
import { type CreateWebhookBody, WEBHOOK_EVENTS, type WebhookEvent } from './webhooks.schemas'
import { createWebhooksRepository } from './webhooks.repository'

interface ProjectRef {
  id: string
  accountId: string
  slug: string
}

type Deps = Pick<AppDeps, 'db'>
const DELIVERIES_LISTED = 50
/** The event of the deliveries the test route sends; no real event has this name. */
const TEST_EVENT = 'test'

const repo = (deps: Deps) => createWebhooksRepository({ db: deps.db })

/**
 * The project's webhooks, oldest first. A member who manages webhooks gets each with its stored URL and
 * secret (spec 4.6); anyone else gets the URL without credentials, query or fragment and only a hint of
 * the secret: with the secret anyone could sign deliveries the receiver would trust.
 */
export async function listWebhooks(deps: Deps, projectId: string, o: { withSecrets: boolean }) {
  return (await repo(deps).list(projectId)).map((w) => ({
    id: w.id,
    name: w.name,
    url: o.withSecrets ? w.url : withoutSecrets(w.url),
    ...(o.withSecrets && { secret: w.secret }),
    secret_hint: w.secret ? secretHint(w.secret) : null,
    event_types: w.eventTypes,
    created_at: w.createdAt.toISOString(),
  }))
}

/** Canonical comma string of the requested event types; all of them when none are given. */
export function parseEventTypes(input: CreateWebhookBody['event_types']): string {
  if (input === undefined) return WEBHOOK_EVENTS.join(',')
  const names = (Array.isArray(input) ? input : input.split(',')).map((s) => s.trim()).filter(Boolean)
  if (names.length === 0) throw badRequest(`event_types must name at least one of ${WEBHOOK_EVENTS.join(', ')}`)
  const unknown = names.filter((n) => !(WEBHOOK_EVENTS as readonly string[]).includes(n))
  if (unknown.length) throw badRequest(`event_types: unknown event type ${unknown.join(', ')} (use ${WEBHOOK_EVENTS.join(', ')})`)
  return WEBHOOK_EVENTS.filter((e: WebhookEvent) => names.includes(e)).join(',')
}

/** Checks the URL is an http(s) URL the server may reach; 400 otherwise. */
async function checkedUrl(deps: AppDeps, url: string): Promise<string> {
  try {
    return (await assertPublicUrl(url, { allowPrivate: deps.config.allowPrivateTargets })).href
  } catch (err) {
    if (err instanceof UnsafeTargetError) throw badRequest(err.message)
    throw err
  }
}

/** Creates a webhook after the URL and event checks, with an audit entry. */
export async function createWebhook(deps: AppDeps, project: ProjectRef, actorId: string, body: CreateWebhookBody): Promise<{ id: string }> {
  const eventTypes = parseEventTypes(body.event_types)
  const url = await checkedUrl(deps, body.url)
  const id = newId()
  const now = deps.clock.now()
  const name = body.name ?? 'Webhook'
  await deps.db.write(async (tx) => {
    await repo(deps).insert({ id, projectId: project.id, name, url, secret: body.secret || null, eventTypes, createdBy: actorId, createdAt: now })
    await recordAudit(tx, now, {
      accountId: project.accountId,
      projectId: project.id,
      actorId,
      action: 'webhook.created',
      target: id,
      details: { name, host: new URL(url).host, event_types: eventTypes, signed: Boolean(body.secret) },
    })
  })
  return { id }
}

async function findWebhook(deps: Deps, projectId: string, webhookId: string) {
  const w = await repo(deps).find(projectId, webhookId)
  if (!w) throw notFound('webhook not found')
  return w
}

/** Deletes a webhook with its deliveries; queued retries find nothing and stop. */
export async function deleteWebhook(deps: AppDeps, project: ProjectRef, actorId: string, webhookId: string): Promise<{ message: string }> {
  const w = await findWebhook(deps, project.id, webhookId)
  await deps.db.write(async (tx) => {
    await repo(deps).remove(w.id)
    await recordAudit(tx, deps.clock.now(), { accountId: project.accountId, projectId: project.id, actorId, action: 'webhook.deleted', target: w.id, details: { name: w.name } })
  })
  return { message: 'Webhook deleted' }
}

/** The 50 most recent deliveries of a webhook, newest first, each with every attempt. */
export async function listDeliveries(deps: Deps, projectId: string, webhookId: string) {
  await findWebhook(deps, projectId, webhookId)
  const rows = await repo(deps).recentDeliveries(webhookId, DELIVERIES_LISTED)
  const attempts = await repo(deps).attemptsOf(rows.map((r) => r.id))
  const iso = (d: Date | null) => (d ? d.toISOString() : null)
  return rows.map((d) => ({
    id: d.id,
    event: d.event,
    is_test: d.event === TEST_EVENT,
    status: d.status,
    attempt_count: d.attempts,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    next_attempt_at: iso(d.nextAttemptAt),
    created_at: iso(d.createdAt),
    updated_at: iso(d.updatedAt),
    payload: JSON.parse(d.payload) as unknown,
    attempts: attempts
      .filter((a) => a.deliveryId === d.id)
      .map((a) => ({
        attempt: a.attempt,
        status_code: a.statusCode,
        duration_ms: a.durationMs,
        error: a.error,
        response_snippet: a.responseSnippet,
        created_at: iso(a.createdAt),
      })),
  }))
}

/**
 * Sends a signed `test` event now, once (spec 4.6: not recorded, not retried): nothing is written, so a
 * test never shows in the deliveries list nor counts among its 50; 502 when the URL cannot be reached.
 */
export async function sendTestEvent(deps: AppDeps, project: ProjectRef, webhookId: string) {
  const w = await findWebhook(deps, project.id, webhookId)
  const payload = JSON.stringify({
    event: TEST_EVENT,
    timestamp: deps.clock.now().toISOString(),
    data: { message: 'This is a test event from Glitchbox.', project_slug: project.slug, webhook_id: w.id },
  })
  const out = await attempt(deps, w, { id: newId(), event: TEST_EVENT, payload }, AbortSignal.timeout(DELIVERY_TIMEOUT_MS))
  if (out.statusCode === null) throw badGateway(`the webhook URL could not be reached (${out.error})`)
  return {
    status_code: out.statusCode,
    message: out.statusCode < 400 ? 'Test event delivered' : `The receiver answered with status ${out.statusCode}`,
    signed: Boolean(w.secret),
  }
}
