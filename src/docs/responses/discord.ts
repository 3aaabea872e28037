import * as z from 'zod'
import { discordSettingsView } from '../../modules/discord/discord.schemas'
import { MessageResponse, type OperationDocs } from './common'

export const DiscordSettings = discordSettingsView
export const DiscordRegistered = z.object({ message: z.string().describe("Discord's answer in words"), commands: z.number().int().describe('Commands Discord now lists for the application in the server') })
export const DiscordInteractionAnswer = z
  .object({ type: z.number().int().describe('1 PONG, 4 message, 5 deferred message, 6 deferred update, 7 update, 9 modal'), data: z.record(z.string(), z.unknown()).optional() })
  .describe("An interaction response in Discord's own shape (no envelope)")
export const DiscordInteraction = z
  .object({ type: z.number().int().describe('1 PING, 2 command, 3 button, 5 form'), id: z.string(), application_id: z.string(), token: z.string(), data: z.record(z.string(), z.unknown()).optional() })
  .describe("Discord's interaction object, signed: `X-Signature-Ed25519` (hex) over `X-Signature-Timestamp` + the raw body")

export type DiscordSettings = z.output<typeof DiscordSettings>

export const discordDocs: OperationDocs = {
  'GET /api/projects/{slug}/discord': { data: DiscordSettings, description: '404 when Discord is not connected' },
  'PUT /api/projects/{slug}/discord': { data: DiscordSettings, errors: [409] },
  'DELETE /api/projects/{slug}/discord': { data: MessageResponse },
  'POST /api/projects/{slug}/discord/register': { data: DiscordRegistered, errors: [502] },
  'POST /api/discord/interactions/{application_id}': {
    data: DiscordInteractionAnswer,
    content: 'plain-json',
    description: 'Called by Discord. 401 for a missing, malformed, wrong or stale (over 5 minutes) signature and for an unknown application id, before anything is read',
    requestBody: { 'application/json': DiscordInteraction },
    errors: [401],
  },
}
