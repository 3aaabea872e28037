import type * as z from 'zod'
import { badRequest, type AppError } from '../../http/errors'
import type { discordAttachment, interactionBase } from './discord.schemas'

/** Who used the interaction, where, and the token that edits our answer for the next 15 minutes. */
export interface InteractionContext {
  interactionId: string
  applicationId: string
  token: string
  user: { id: string; username: string; global_name: string | null }
  guild_id: string | null
  channel_id: string | null
  locale: string | null
}

/** A file a player attached, as Discord describes it (fetched later, from Discord's host only). */
export interface PlayerAttachment {
  url: string
  content_type: string | null
  size: number
  filename: string
}

/** The context shared by every interaction; a guild interaction names its user under `member`. */
export function contextOf(i: z.infer<typeof interactionBase>): InteractionContext {
  const user = i.member?.user ?? i.user
  if (!user) throw invalidInteraction('it names no user')
  return {
    interactionId: i.id,
    applicationId: i.application_id,
    token: i.token,
    user: { id: user.id, username: user.username, global_name: user.global_name ?? null },
    guild_id: i.guild_id ?? null,
    channel_id: i.channel_id ?? i.channel?.id ?? null,
    locale: i.locale ?? null,
  }
}

/** The attachment fields kept from Discord's resolved attachment. */
export const attachmentOf = (a: z.infer<typeof discordAttachment>): PlayerAttachment => ({ url: a.url, content_type: a.content_type ?? null, size: a.size, filename: a.filename })

/** A 400 for an interaction body that is not what Discord sends. */
export const invalidInteraction = (why: string): AppError => badRequest(`not a Discord interaction we answer: ${why}`)
