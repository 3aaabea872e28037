import type { AppDeps } from '../../app-deps'
import { badGateway, badRequest, conflict, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { recordAudit } from '../activity/activity.service'
import { encryptSecret, readStoredSecret, secretHint } from '../integrations/credentials.crypto'
import { DiscordError, registerReportCommand } from './discord.client'
import { createDiscordRepository, type DiscordApp } from './discord.repository'
import type { DiscordSettingsBody } from './discord.schemas'

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'secrets'>

interface ProjectRef {
  id: string
  accountId: string
}

/** The Discord domain's repository over the app's database. */
export const discord = (deps: Pick<AppDeps, 'db'>) => createDiscordRepository({ db: deps.db })

/** The URL to paste as the application's Interactions Endpoint URL. */
export const interactionsEndpointUrl = (config: Pick<AppDeps['config'], 'publicUrl'>, applicationId: string) =>
  `${config.publicUrl}/api/discord/interactions/${applicationId}`

/** The project's Discord application, or 404. */
export async function discordAppOf(deps: Pick<AppDeps, 'db'>, projectId: string): Promise<DiscordApp> {
  const app = await discord(deps).appOf(projectId)
  if (!app) throw notFound('Discord is not connected to this project')
  return app
}

/** The settings as the API shows them: never the bot token, only its last characters. */
export function discordView(config: Pick<AppDeps['config'], 'publicUrl'>, app: DiscordApp) {
  return {
    application_id: app.applicationId,
    public_key: app.publicKey,
    bot_token_hint: app.botTokenHint,
    guild_id: app.guildId,
    reply_channel_id: app.replyChannelId,
    replies_enabled: app.repliesEnabled,
    reports_per_hour: app.reportsPerHour,
    blocked_user_ids: app.blockedUserIds,
    command_registered_at: app.commandRegisteredAt?.toISOString() ?? null,
    interactions_endpoint_url: interactionsEndpointUrl(config, app.applicationId),
  }
}

/** The bot token, decrypted for a call to Discord (400 saying how to fix it when this server's key cannot read it). */
export const botTokenOf = (deps: Pick<AppDeps, 'secrets'>, app: DiscordApp) =>
  readStoredSecret(deps.secrets, app.botTokenEnc, app.id, 'Discord bot token', 'enter it again in the Discord settings')

/** Creates or replaces the project's Discord settings; 409 when another project uses the application. */
export async function saveDiscordSettings(deps: Deps, project: ProjectRef, actorId: string, body: DiscordSettingsBody) {
  const repo = discord(deps)
  const [current, owner] = await Promise.all([repo.appOf(project.id), repo.appByApplicationId(body.application_id)])
  if (owner && owner.projectId !== project.id) throw conflict('that Discord application is connected to another project')
  if (!current && !body.bot_token) throw badRequest('bot_token is required to connect Discord')
  const now = deps.clock.now()
  const id = current?.id ?? newId()
  const token = body.bot_token ? { botTokenEnc: await encryptSecret(deps.secrets, body.bot_token, id), botTokenHint: secretHint(body.bot_token) } : {}
  const fields = {
    applicationId: body.application_id,
    publicKey: body.public_key.toLowerCase(),
    guildId: body.guild_id,
    ...(body.reply_channel_id !== undefined ? { replyChannelId: body.reply_channel_id } : {}),
    ...(body.replies_enabled !== undefined ? { repliesEnabled: body.replies_enabled } : {}),
    ...(body.reports_per_hour !== undefined ? { reportsPerHour: body.reports_per_hour } : {}),
    ...(body.blocked_user_ids !== undefined ? { blockedUserIds: [...new Set(body.blocked_user_ids)] } : {}),
    // The command is installed per application and guild: a change of either needs registering again.
    ...(current && (current.applicationId !== body.application_id || current.guildId !== body.guild_id) ? { commandRegisteredAt: null } : {}),
    ...token,
    updatedAt: now,
  }
  await deps.db.write(async (tx) => {
    if (current) await repo.updateApp(id, fields)
    else await repo.insertApp({ id, projectId: project.id, botTokenEnc: '', botTokenHint: '', ...fields, createdAt: now })
    await recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action: current ? 'discord.updated' : 'discord.connected', target: id, details: { application_id: body.application_id, guild_id: body.guild_id } })
  })
  return discordView(deps.config, await discordAppOf(deps, project.id))
}

/** Disconnects Discord; reports filed from it stay. */
export async function deleteDiscordSettings(deps: Deps, project: ProjectRef, actorId: string) {
  const app = await discordAppOf(deps, project.id)
  await deps.db.write(async (tx) => {
    await discord(deps).removeApp(app.id)
    await recordAudit(tx, deps.clock.now(), { accountId: project.accountId, projectId: project.id, actorId, action: 'discord.disconnected', target: app.id, details: { application_id: app.applicationId } })
  })
  return { message: 'Discord disconnected' }
}

/** "Register /report": installs the guild command through Discord's REST API; 502 with Discord's refusal in words. */
export async function registerCommand(deps: Deps, projectId: string) {
  const app = await discordAppOf(deps, projectId)
  const botToken = await botTokenOf(deps, app)
  try {
    const { commands } = await registerReportCommand(deps.config, { applicationId: app.applicationId, guildId: app.guildId, botToken })
    await discord(deps).updateApp(app.id, { commandRegisteredAt: deps.clock.now(), updatedAt: deps.clock.now() })
    return { message: `Discord installed /report in the server (${commands} command${commands === 1 ? '' : 's'} registered for this application there)`, commands }
  } catch (err) {
    if (err instanceof DiscordError) throw badGateway(err.message)
    throw err
  }
}
