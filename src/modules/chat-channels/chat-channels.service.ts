import type { AppDeps } from '../../app-deps'
import { badGateway, badRequest, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { assertPublicUrl, UnsafeTargetError } from '../../net/safe-fetch'
import { recordAudit } from '../activity/activity.service'
import { encryptSecret, readStoredSecret } from '../integrations/credentials.crypto'
import { chatMessage } from '../integrations/providers/chat-message'
import { ProviderError } from '../integrations/providers/provider.types'
import { releaseHeld } from './chat-channels.delivery'
import { postMessage } from './chat-channels.post'
import { CHANNEL_PROVIDERS, checkProviderUrl, urlHint } from './chat-channels.providers'
import { type Channel, createChatChannelsRepository } from './chat-channels.repository'
import { CHANNEL_EVENTS, type ChatChannelProvider, type CreateChannelBody, type UpdateChannelBody } from './chat-channels.schemas'

interface ProjectRef {
  id: string
  accountId: string
  slug: string
  name: string
}

type Deps = Pick<AppDeps, 'db'>

const channels = (deps: Deps) => createChatChannelsRepository({ db: deps.db })

/** A channel as the API shows it: the webhook URL only as a hint. */
function view(c: Channel) {
  return {
    id: c.id,
    provider: c.provider,
    channel_name: c.channelName,
    webhook_url_hint: c.webhookUrlHint,
    event_types: c.eventTypes,
    is_active: c.isActive,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  }
}

/** The project's channels of one provider, oldest first. */
export async function listChannels(deps: Deps, projectId: string, provider: ChatChannelProvider) {
  return (await channels(deps).list(projectId, provider)).map(view)
}

/** The event names asked for, in canonical order; all three when none are given. 400 naming event_types otherwise. */
function parseEvents(input: CreateChannelBody['event_types']): string[] {
  if (input === undefined) return [...CHANNEL_EVENTS]
  const names = (Array.isArray(input) ? input : input.split(',')).map((s) => s.trim()).filter(Boolean)
  const unknown = names.filter((n) => !(CHANNEL_EVENTS as readonly string[]).includes(n))
  if (!names.length || unknown.length) throw badRequest(`event_types must name one or more of ${CHANNEL_EVENTS.join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`)
  return CHANNEL_EVENTS.filter((e) => names.includes(e))
}

/** The provider's webhook host and path, then the SSRF guard; 400 naming webhook_url. */
async function checkedUrl(deps: AppDeps, provider: ChatChannelProvider, raw: string): Promise<string> {
  const url = checkProviderUrl(deps.config, provider, raw)
  try {
    await assertPublicUrl(url, { allowPrivate: deps.config.allowPrivateTargets })
  } catch (err) {
    if (err instanceof UnsafeTargetError) throw badRequest(`webhook_url: ${err.message}`)
    throw err
  }
  return url
}

/** One channel of the project and provider, or 404. */
async function findChannel(deps: Deps, projectId: string, provider: ChatChannelProvider, id: string): Promise<Channel> {
  const c = await channels(deps).find(projectId, provider, id)
  if (!c) throw notFound(`${CHANNEL_PROVIDERS[provider].name} channel not found`)
  return c
}

/** Creates a channel; its webhook URL is checked and stored encrypted. */
export async function createChannel(deps: AppDeps, project: ProjectRef, actorId: string, provider: ChatChannelProvider, body: CreateChannelBody) {
  const eventTypes = parseEvents(body.event_types)
  const url = await checkedUrl(deps, provider, body.webhook_url)
  const id = newId()
  const now = deps.clock.now()
  const enc = await encryptSecret(deps.secrets, url, id)
  const channelName = body.channel_name ?? `${CHANNEL_PROVIDERS[provider].name} channel`
  await deps.db.write(async (tx) => {
    await channels(deps).insert({ id, projectId: project.id, provider, webhookUrlEnc: enc, webhookUrlHint: urlHint(url), channelName, eventTypes, isActive: body.is_active ?? true, createdBy: actorId, createdAt: now, updatedAt: now })
    await recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action: 'chat_channel.created', target: id, details: { provider, channel_name: channelName, event_types: eventTypes } })
  })
  return view(await findChannel(deps, project.id, provider, id))
}

/** Changes a channel; `is_active` false pauses it (queued retries wait), true resumes it and releases them. */
export async function updateChannel(deps: AppDeps, project: ProjectRef, actorId: string, provider: ChatChannelProvider, id: string, body: UpdateChannelBody) {
  const c = await findChannel(deps, project.id, provider, id)
  const set: Partial<Pick<Channel, 'webhookUrlEnc' | 'webhookUrlHint' | 'channelName' | 'eventTypes' | 'isActive'>> = {}
  if (body.webhook_url !== undefined) {
    const url = await checkedUrl(deps, provider, body.webhook_url)
    set.webhookUrlEnc = await encryptSecret(deps.secrets, url, c.id)
    set.webhookUrlHint = urlHint(url)
  }
  if (body.channel_name !== undefined) set.channelName = body.channel_name
  if (body.event_types !== undefined) set.eventTypes = parseEvents(body.event_types)
  if (body.is_active !== undefined) set.isActive = body.is_active
  const changed = Object.keys(body).filter((k) => (body as Record<string, unknown>)[k] !== undefined)
  if (!changed.length) throw badRequest('no valid fields to update (webhook_url, channel_name, event_types, is_active)')
  const now = deps.clock.now()
  await deps.db.write(async (tx) => {
    await channels(deps).update(c.id, { ...set, updatedAt: now })
    if (body.is_active && !c.isActive) await releaseHeld(deps, tx, c.id)
    await recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action: 'chat_channel.updated', target: c.id, details: { provider, fields: changed } })
  })
  return view(await findChannel(deps, project.id, provider, id))
}

/** Deletes a channel with its deliveries; queued retries find nothing and stop. */
export async function deleteChannel(deps: AppDeps, project: ProjectRef, actorId: string, provider: ChatChannelProvider, id: string) {
  const c = await findChannel(deps, project.id, provider, id)
  await deps.db.write(async (tx) => {
    await channels(deps).remove(c.id)
    await recordAudit(tx, deps.clock.now(), { accountId: project.accountId, projectId: project.id, actorId, action: 'chat_channel.deleted', target: c.id, details: { provider, channel_name: c.channelName } })
  })
  return { message: `${CHANNEL_PROVIDERS[provider].name} channel deleted` }
}

const DELIVERIES_LISTED = 50
/** The event of the posts the test route records; no real event has this name. */
const TEST_EVENT = 'test'

/** The channel's 50 most recent posts, newest first: status, attempts and the provider's last answer. */
export async function listChannelDeliveries(deps: Deps, projectId: string, provider: ChatChannelProvider, id: string) {
  const c = await findChannel(deps, projectId, provider, id)
  return (await channels(deps).recentDeliveries(c.id, DELIVERIES_LISTED)).map((d) => ({
      id: d.id,
      event: d.event,
      is_test: d.event === TEST_EVENT,
      report_id: d.reportId,
      status: d.status,
      attempts: d.attempts,
      last_status_code: d.lastStatusCode,
      last_error: d.lastError,
      response: d.response,
      created_at: d.createdAt.toISOString(),
      updated_at: d.updatedAt.toISOString(),
    }))
}

/**
 * Posts a test message now, not retried, and records it in the channel's deliveries (event `test`,
 * `is_test`); 502 with the provider's answer when it refuses.
 */
export async function testChannel(deps: AppDeps, project: ProjectRef, provider: ChatChannelProvider, id: string) {
  const c = await findChannel(deps, project.id, provider, id)
  const url = await readStoredSecret(deps.secrets, c.webhookUrlEnc, c.id, 'webhook URL', 'enter it again (PATCH webhook_url)')
  const message = chatMessage({ event: 'test', action: 'post', payload: { project: { id: project.id, slug: project.slug, name: project.name }, at: deps.clock.now().getTime() } }, deps.config.publicUrl)
  const body = JSON.stringify(CHANNEL_PROVIDERS[provider].render(message, 'test'))
  let failure: ProviderError | null = null
  let answer: { status: number | null; text: string | null }
  try {
    answer = await postMessage(deps, provider, url, body)
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err
    failure = err
    answer = { status: err.statusCode, text: err.response }
  }
  const now = deps.clock.now()
  const deliveryId = newId()
  await channels(deps).insertDelivery({ id: deliveryId, channelId: c.id, event: TEST_EVENT, reportId: null, body, status: failure ? 'failed' : 'succeeded', attempts: 1, lastStatusCode: answer.status, lastError: failure?.message ?? null, response: answer.text, createdAt: now, updatedAt: now })
  if (failure) throw badGateway(failure.message)
  return { status_code: answer.status!, message: `Test message posted to ${CHANNEL_PROVIDERS[provider].name}`, delivery_id: deliveryId }
}
