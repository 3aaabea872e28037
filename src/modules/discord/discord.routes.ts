import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { rawBodyCopy } from '../../http/raw-body'
import { answerInteraction } from './discord-interactions.service'
import { discordSettingsBody } from './discord.schemas'
import { deleteDiscordSettings, discordAppOf, discordView, registerCommand, saveDiscordSettings } from './discord.service'

const tags = ['Discord']
const base = '/projects/:slug/discord'

/** A project's Discord settings, "Register /report", and the interactions endpoint Discord calls. */
export function discordRoutes(deps: AppDeps) {
  // The signature covers exactly the bytes Discord sent: they are copied before the JSON parser reads them.
  const signed = rawBodyCopy(deps, { name: 'discord-interactions-raw-body', marker: '/discord/interactions/', path: /^\/api(?:\/v1)?\/discord\/interactions\/[^/]+$/ })
  return new Elysia()
    .use(signed.plugin)
    .use(authPlugin(deps))
    .get(base, async ({ project }) => discordView(deps.config, await discordAppOf(deps, project.id)), {
      project: 'project.integrations',
      detail: { tags, summary: 'The Discord /report settings (404 when not connected); the bot token is never shown' },
    })
    .put(base, ({ project, user, body }) => saveDiscordSettings(deps, project, user.id, body), {
      project: 'project.integrations',
      body: discordSettingsBody,
      detail: { tags, summary: 'Connect Discord or change its settings; the bot token is kept when left out' },
    })
    .delete(base, ({ project, user }) => deleteDiscordSettings(deps, project, user.id), { project: 'project.integrations', detail: { tags, summary: 'Disconnect Discord' } })
    .post(`${base}/register`, ({ project }) => registerCommand(deps, project.id), {
      project: 'project.integrations',
      detail: { tags, summary: "Install /report in the Discord server through Discord's REST API; 502 with Discord's answer in words" },
    })
    .post('/discord/interactions/:application_id', async ({ params, headers, request }) => Response.json(await answerInteraction(deps, params.application_id, headers, new TextEncoder().encode(await signed.bodyOf(request)))), {
      detail: { tags, summary: "Discord's Interactions Endpoint: PING, /report, its form and the +1 buttons, each signed with the application's Ed25519 key" },
    })
}
