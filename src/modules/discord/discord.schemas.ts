import * as z from 'zod'

/** A Discord snowflake id: digits, as text. */
export const snowflake = z.string().regex(/^\d{1,25}$/)

/** A Discord user: its id, handle and display name. */
export const discordUser = z.object({
  id: snowflake,
  username: z.string().max(100),
  global_name: z.string().max(100).nullish(),
})

/** An attachment as Discord resolves it in an interaction. */
export const discordAttachment = z.object({
  id: snowflake,
  filename: z.string().max(1024),
  size: z.number().int().nonnegative(),
  url: z.string().max(4096),
  content_type: z.string().max(200).nullish(),
})

/** The fields every interaction shares: who, where, and the token that edits our answer. */
export const interactionBase = z.object({
  id: snowflake,
  application_id: snowflake,
  type: z.number().int(),
  token: z.string().min(1).max(1000),
  guild_id: snowflake.nullish(),
  channel_id: snowflake.nullish(),
  channel: z.object({ id: snowflake }).nullish(),
  member: z.object({ user: discordUser }).nullish(),
  user: discordUser.nullish(),
  locale: z.string().max(20).nullish(),
})

/** `data.resolved`: the attachments an interaction names by id. */
export const resolvedAttachments = z.object({ attachments: z.record(z.string(), discordAttachment).nullish() }).nullish()

/** A component as a modal submit returns it; labels and action rows nest the inputs. */
export interface SubmittedComponent {
  type: number
  custom_id?: string
  value?: string
  values?: string[]
  component?: SubmittedComponent
  components?: SubmittedComponent[]
}
/** The schema of a SubmittedComponent (the request body limit bounds its nesting). */
export const submittedComponent: z.ZodType<SubmittedComponent> = z.lazy(() =>
  z.object({
    type: z.number().int(),
    custom_id: z.string().max(100).optional(),
    value: z.string().max(8000).optional(),
    values: z.array(z.string().max(100)).max(25).optional(),
    component: submittedComponent.optional(),
    components: z.array(submittedComponent).max(25).optional(),
  }),
)

/** A modal submit (type 5). */
export const modalSubmitInteraction = interactionBase.extend({
  data: z.object({
    custom_id: z.string().max(100),
    components: z.array(submittedComponent).max(25),
    resolved: resolvedAttachments,
  }),
})

/** A message component interaction (type 3): a button click. */
export const componentInteraction = interactionBase.extend({
  data: z.object({ custom_id: z.string().max(100), component_type: z.number().int() }),
})

/** An application command (type 2) with its options. */
export const commandInteraction = interactionBase.extend({
  data: z.object({
    name: z.string().max(32),
    options: z.array(z.object({ name: z.string().max(32), type: z.number().int(), value: z.unknown() })).max(25).nullish(),
    resolved: resolvedAttachments,
  }),
})

/** `PUT /projects/{slug}/discord`: the application's ids and key, and the bot token (required the first time, kept when left out). */
export const discordSettingsBody = z.object({
  application_id: snowflake.describe('Application ID, from the General Information page of the developer portal'),
  public_key: z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be the 64 hex characters of the Public Key').describe('Public Key, from the same page'),
  bot_token: z.string().min(20).max(200).regex(/^[A-Za-z0-9._-]+$/, 'must be the token from the Bot page').optional().describe('Bot token; never shown back'),
  guild_id: snowflake.describe('The Discord server (guild) id where /report is installed'),
  reply_channel_id: snowflake.nullish().describe('Channel for status replies; empty: the channel the report came from'),
  replies_enabled: z.boolean().optional().describe('Post in Discord when a report filed from there changes status (default on)'),
  reports_per_hour: z.number().int().min(1).max(1000).optional().describe('Most reports one Discord user may file in an hour (default 10)'),
  blocked_user_ids: z.array(snowflake).max(1000).optional().describe('Discord user ids whose /report is refused'),
})
export type DiscordSettingsBody = z.infer<typeof discordSettingsBody>

/** The settings as the API shows them (the token as a hint only). */
export const discordSettingsView = z.object({
  application_id: z.string(),
  public_key: z.string(),
  bot_token_hint: z.string(),
  guild_id: z.string(),
  reply_channel_id: z.string().nullable(),
  replies_enabled: z.boolean(),
  reports_per_hour: z.number(),
  blocked_user_ids: z.array(z.string()),
  command_registered_at: z.string().nullable(),
  interactions_endpoint_url: z.string(),
})
