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
