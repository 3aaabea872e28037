import type { AppDeps } from '../../app-deps'
import { AppError, unauthorized } from '../../http/errors'
import { sdkBudget } from '../../http/rate-limit'
import { HOUR } from '../../lib/clock'
import { createProjectsRepository } from '../projects/projects.repository'
import { voteOnTracker } from '../public/votes.service'
import { EPHEMERAL, InteractionType, NO_MENTIONS, ResponseType } from './discord-api'
import { invalidInteraction, type InteractionContext, type PlayerAttachment } from './discord-interaction'
import { parseReportCommand } from './discord-report-command'
import { deferredEphemeral, parseButtonClick, pong, votedUpdate } from './discord-report-messages'
import { parseReportSubmission, reportModal } from './discord-report-modal'
import type { DiscordApp } from './discord.repository'
import { verifyDiscordSignature } from './discord-signature'
import { discord } from './discord.service'
import { FILE_KIND, type HeldForm } from './discord-filing'

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'jobs' | 'rateLimiter'>

/** A message only the player sees, answered at once (type 4, ephemeral). */
const tell = (content: string) => ({ type: ResponseType.ChannelMessage, data: { content, flags: EPHEMERAL, allowed_mentions: NO_MENTIONS } })

/**
 * `POST /api/discord/interactions/{application_id}`: the signature is checked before anything is
 * read; an unknown application gets the same 401 as a bad signature, so the endpoint tells nobody
 * which ids are configured. Then PING, `/report`, its form and the suggestion buttons.
 */
export async function answerInteraction(deps: Deps, applicationId: string, headers: Record<string, string | undefined>, body: Uint8Array) {
  const app = await discord(deps).appByApplicationId(applicationId)
  const check = await verifyDiscordSignature({
    publicKeyHex: app?.publicKey ?? '',
    signature: headers['x-signature-ed25519'],
    timestamp: headers['x-signature-timestamp'],
    body,
    clock: deps.clock,
  })
  if (!app || !check.ok) throw unauthorized('invalid request signature')
  let payload: unknown
  try {
    payload = JSON.parse(new TextDecoder().decode(body))
  } catch {
    throw invalidInteraction('the body is not JSON')
  }
  const type = (payload as { type?: unknown } | null)?.type
  if ((payload as { application_id?: unknown } | null)?.application_id !== applicationId && type !== InteractionType.Ping) throw invalidInteraction('it names another application')
  switch (type) {
    case InteractionType.Ping:
      return pong()
    case InteractionType.ApplicationCommand:
      return answerCommand(deps, app, payload)
    case InteractionType.ModalSubmit:
      return answerForm(deps, app, payload)
    case InteractionType.MessageComponent:
      return answerButton(deps, app, payload)
    default:
      throw invalidInteraction(`type ${String(type)} is not one we answer`)
  }
}

/** Why this player may not file now, in words for them; null when they may. */
async function refusal(deps: Deps, app: DiscordApp, user: InteractionContext['user']): Promise<string | null> {
  if (app.blockedUserIds.includes(user.id)) return 'Sorry, you cannot send reports to this game’s developers.'
  const since = new Date(deps.clock.now().getTime() - HOUR)
  if ((await discord(deps).sentSince(app.projectId, user.id, since)) >= app.reportsPerHour) {
    return `You have sent ${app.reportsPerHour} reports in the last hour, the most this server takes. Please try again later.`
  }
  // The SDK budget, counted per Discord user rather than per address: every interaction comes from Discord's.
  const budgets = sdkBudget(deps.config)
  if (budgets.length && !deps.rateLimiter.hit(`discord:${user.id}`, budgets).allowed) return 'You are sending reports too fast. Please wait a minute.'
  return null
}

/** `/report`: the form, carrying the screenshot given as the command's option (held until the form comes back). */
async function answerCommand(deps: Deps, app: DiscordApp, payload: unknown) {
  const cmd = parseReportCommand(payload)
  const refused = await refusal(deps, app, cmd.user)
  if (refused) return tell(refused)
  if (!cmd.attachment) return reportModal()
  await discord(deps).insertSubmission(held(deps, app, cmd, 'command', { attachments: [cmd.attachment] }))
  return reportModal({ carry: cmd.interactionId })
}

/** The row of a form (or of a command holding its screenshot) as it is stored. */
function held(deps: Deps, app: DiscordApp, ctx: InteractionContext, status: 'command' | 'pending', form: Partial<HeldForm> & { attachments: PlayerAttachment[] }) {
  const now = deps.clock.now()
  return { interactionId: ctx.interactionId, projectId: app.projectId, userId: ctx.user.id, status, channelId: ctx.channel_id, payload: { ...ctx, ...form } as Record<string, unknown>, createdAt: now, updatedAt: now }
}

/** The form: recorded and queued for filing in one write, answered at once with a deferred ephemeral message. */
async function answerForm(deps: Deps, app: DiscordApp, payload: unknown) {
  const form = parseReportSubmission(payload)
  const refused = await refusal(deps, app, form.user)
  if (refused) return tell(refused)
  const repo = discord(deps)
  // The command's own screenshot, when the form carries its key and the same player sent it.
  const command = form.carry ? await repo.submission(form.carry) : undefined
  const fromCommand = command?.status === 'command' && command.userId === form.user.id && command.projectId === app.projectId ? ((command.payload.attachments as PlayerAttachment[]) ?? []) : []
  const attachments = [...form.attachments, ...fromCommand.filter((a) => !form.attachments.some((b) => b.url === a.url))]
  const { carry: _carry, ...rest } = form
  await deps.db.write(async (tx) => {
    if (await repo.insertSubmission(held(deps, app, form, 'pending', { ...rest, attachments }))) {
      await deps.jobs.enqueue(tx, { kind: FILE_KIND, payload: { interactionId: form.interactionId }, idempotencyKey: `${FILE_KIND}:${form.interactionId}` })
    }
  })
  return deferredEphemeral()
}

/** A suggestion button: +1 on that report instead of filing, or "send my report" after all. */
async function answerButton(deps: Deps, app: DiscordApp, payload: unknown) {
  const click = parseButtonClick(payload)
  const repo = discord(deps)
  const row = await repo.submission(click.pendingKey)
  if (!row || row.projectId !== app.projectId || row.userId !== click.user.id) return tell('That form is no longer waiting for an answer.')
  const now = deps.clock.now()
  if (click.action === 'file') {
    const moved = await deps.db.write(async (tx) => {
      if (!(await repo.advance(row.interactionId, ['suggested'], { status: 'pending', payload: { ...row.payload, force: true }, updatedAt: now }))) return false
      await deps.jobs.enqueue(tx, { kind: FILE_KIND, payload: { interactionId: row.interactionId }, idempotencyKey: `${FILE_KIND}:${row.interactionId}:forced` })
      return true
    })
    // Type 6: the filing job then edits the suggestion message into the thanks.
    return moved ? { type: ResponseType.DeferredUpdateMessage } : tell('That report was already sent.')
  }
  if (row.status !== 'suggested') return tell('That form is no longer waiting for an answer.')
  const project = await createProjectsRepository({ db: deps.db }).byId(app.projectId)
  if (!project) return tell('This game’s tracker is gone.')
  try {
    await voteOnTracker(deps, project.slug, click.reportNumber, { playerId: `discord:${click.user.id}`, ip: `discord:${click.user.id}` })
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return tell(`That report cannot take votes now (${err.message}).`)
    throw err
  }
  await repo.advance(row.interactionId, ['suggested'], { status: 'voted', reportNumber: click.reportNumber, updatedAt: now })
  return votedUpdate({ reportNumber: click.reportNumber, url: `${deps.config.publicUrl}/tracker/${encodeURIComponent(project.slug)}/${click.reportNumber}` })
}
