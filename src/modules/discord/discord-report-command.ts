import { commandInteraction } from './discord.schemas'
import { CommandType, OptionType, REPORT_COMMAND } from './discord-api'
import { attachmentOf, contextOf, invalidInteraction, type InteractionContext, type PlayerAttachment } from './discord-interaction'

/** The option a client without the modal's file upload uses to attach a screenshot to `/report`. */
export const SCREENSHOT_OPTION = 'screenshot'

/**
 * The body of `PUT /applications/{application_id}/guilds/{guild_id}/commands`: the guild's commands,
 * here `/report` alone, described in the languages players see (en-US at least), with an optional
 * screenshot attachment.
 */
export function reportCommandRegistration() {
  return [
    {
      name: REPORT_COMMAND,
      type: CommandType.ChatInput,
      description: 'Report a bug to the developers',
      description_localizations: {
        'en-US': 'Report a bug to the developers',
        'en-GB': 'Report a bug to the developers',
        fr: 'Signaler un bug aux développeurs',
        de: 'Einen Fehler an die Entwickler melden',
        'es-ES': 'Informar de un error a los desarrolladores',
        'pt-BR': 'Relatar um bug aos desenvolvedores',
      },
      options: [
        {
          type: OptionType.Attachment,
          name: SCREENSHOT_OPTION,
          description: 'A screenshot of the problem (if your app cannot attach one in the form)',
          description_localizations: {
            'en-US': 'A screenshot of the problem (if your app cannot attach one in the form)',
            fr: 'Une capture d’écran du problème (si votre app ne peut pas la joindre au formulaire)',
            de: 'Ein Screenshot des Problems (falls deine App ihn nicht im Formular anhängen kann)',
          },
          required: false,
        },
      ],
    },
  ]
}

/** A `/report` invocation: who ran it and where, and the screenshot given as its option, if any. */
export interface ReportCommand extends InteractionContext {
  attachment: PlayerAttachment | null
}

/** Parses an application command interaction (type 2) for `/report`; throws a 400 for anything else. */
export function parseReportCommand(payload: unknown): ReportCommand {
  const parsed = commandInteraction.safeParse(payload)
  if (!parsed.success) throw invalidInteraction('the command payload has the wrong shape')
  const i = parsed.data
  if (i.data.name !== REPORT_COMMAND) throw invalidInteraction(`unknown command /${i.data.name}`)
  const option = i.data.options?.find((o) => o.name === SCREENSHOT_OPTION && o.type === OptionType.Attachment)
  const attachments = i.data.resolved?.attachments ?? {}
  const resolved = typeof option?.value === 'string' && Object.hasOwn(attachments, option.value) ? attachments[option.value] : undefined
  return { ...contextOf(i), attachment: resolved ? attachmentOf(resolved) : null }
}
