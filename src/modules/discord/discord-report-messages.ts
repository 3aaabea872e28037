import { componentInteraction } from './discord.schemas'
import { ButtonStyle, ComponentType, CustomId, EPHEMERAL, InteractionType, NO_MENTIONS, ResponseType } from './discord-api'
import { contextOf, invalidInteraction, type InteractionContext } from './discord-interaction'
import { customIdWith } from './discord-report-modal'

/** Most similar reports offered instead of filing. */
export const MAX_SUGGESTIONS = 3
const BUTTON_LABEL_MAX = 80
const CONTENT_MAX = 2000

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/** The answer to a PING: Discord's check that the endpoint is ours. */
export const pong = () => ({ type: ResponseType.Pong })

/** The answer within Discord's three seconds to a submission: "thinking…", seen by the player alone. */
export const deferredEphemeral = () => ({ type: ResponseType.DeferredChannelMessage, data: { flags: EPHEMERAL } })

/** A published report offered as a possible duplicate. */
export interface SuggestedReport {
  report_number: number
  title: string
}

/**
 * The edit of the deferred message that offers up to three similar reports as buttons, each a +1 to
 * that report (its custom id carries the report number and the pending submission's key), and one
 * button that files the player’s report after all. The pending key is the caller’s (up to 48 of
 * `[A-Za-z0-9_-]`), to find the held submission again.
 */
export function duplicateSuggestions(opts: { reports: readonly SuggestedReport[]; pendingKey: string }) {
  const reports = opts.reports.slice(0, MAX_SUGGESTIONS)
  const list = reports.map((r) => `• #${r.report_number} ${r.title}`).join('\n')
  return {
    content: cut(`These reports look like yours. If one of them is your problem, add your +1 to it:\n${list}`, CONTENT_MAX),
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          ...reports.map((r) => ({
            type: ComponentType.Button,
            style: ButtonStyle.Primary,
            label: cut(`This is my problem: +1 #${r.report_number} ${r.title}`, BUTTON_LABEL_MAX),
            custom_id: customIdWith(CustomId.vote, `${r.report_number}_${opts.pendingKey}`),
          })),
          { type: ComponentType.Button, style: ButtonStyle.Secondary, label: 'None of these: send my report', custom_id: customIdWith(CustomId.file, opts.pendingKey) },
        ],
      },
    ],
    allowed_mentions: NO_MENTIONS,
  }
}

/** A click on a suggestion's button: a +1 to a report, or "send my report" after all. */
export type ButtonClick = InteractionContext & ({ action: 'vote'; reportNumber: number; pendingKey: string } | { action: 'file'; pendingKey: string })

/** Parses a message component interaction (type 3) on our buttons; throws a 400 for anything else. */
export function parseButtonClick(payload: unknown): ButtonClick {
  const parsed = componentInteraction.safeParse(payload)
  if (!parsed.success || parsed.data.type !== InteractionType.MessageComponent) throw invalidInteraction('the button click has the wrong shape')
  const i = parsed.data
  const ctx = contextOf(i)
  const vote = new RegExp(`^${CustomId.vote}:(\\d{1,9})_([A-Za-z0-9_-]{1,64})$`).exec(i.data.custom_id)
  if (vote && i.data.component_type === ComponentType.Button) return { ...ctx, action: 'vote', reportNumber: Number(vote[1]), pendingKey: vote[2]! }
  const file = new RegExp(`^${CustomId.file}:([A-Za-z0-9_-]{1,64})$`).exec(i.data.custom_id)
  if (file && i.data.component_type === ComponentType.Button) return { ...ctx, action: 'file', pendingKey: file[1]! }
  throw invalidInteraction('it is not one of our buttons')
}

/** " Follow it here: <url>" for a public report; nothing otherwise. */
const followLink = (url: string | null | undefined) => (url ? ` Follow it here: <${url}>` : '')

/** The edit of the deferred message once the report is filed: "Thanks — report #N", with its tracker link when public. */
export function thanksEdit(opts: { reportNumber: number; url?: string | null }) {
  return { content: `Thanks — report #${opts.reportNumber} was sent to the developers.${followLink(opts.url)}`, components: [], allowed_mentions: NO_MENTIONS }
}

/** The answer to a +1 button (type 7 replaces the suggestion message and its buttons). */
export function votedUpdate(opts: { reportNumber: number; url?: string | null }) {
  return { type: ResponseType.UpdateMessage, data: { content: `Thanks — your +1 was added to report #${opts.reportNumber}.${followLink(opts.url)}`, components: [], allowed_mentions: NO_MENTIONS } }
}

const STATUS_WORDS: Record<string, string> = { in_progress: 'is being worked on', resolved: 'is fixed', closed: 'is closed', wont_fix: 'will not be fixed' }

/** The bot's message in the report's channel when its status changes; it pings the player who filed it and nobody else. */
export function statusReply(opts: { userId: string; reportNumber: number; title: string; status: string; url?: string | null }) {
  const words = STATUS_WORDS[opts.status] ?? `is now ${opts.status.replace(/_/g, ' ')}`
  return {
    content: cut(`<@${opts.userId}> your report #${opts.reportNumber} “${cut(opts.title, 200)}” ${words}.${followLink(opts.url)}`, CONTENT_MAX),
    allowed_mentions: { parse: [], users: [opts.userId] },
  }
}
