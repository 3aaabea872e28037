// Discord's numbers (discord.com/developers/docs: interactions/receiving-and-responding and
// components/reference), named once for the builders and parsers.

/** `type` of an incoming interaction. */
export const InteractionType = { Ping: 1, ApplicationCommand: 2, MessageComponent: 3, Autocomplete: 4, ModalSubmit: 5 } as const

/** `type` of an interaction response. */
export const ResponseType = { Pong: 1, ChannelMessage: 4, DeferredChannelMessage: 5, DeferredUpdateMessage: 6, UpdateMessage: 7, Modal: 9 } as const

/** `type` of a message or modal component. */
export const ComponentType = { ActionRow: 1, Button: 2, TextInput: 4, Label: 18, FileUpload: 19 } as const

/** Text input styles and button styles. */
export const TextInputStyle = { Short: 1, Paragraph: 2 } as const
export const ButtonStyle = { Primary: 1, Secondary: 2 } as const

/** Application command kinds and option types. */
export const CommandType = { ChatInput: 1 } as const
export const OptionType = { Attachment: 11 } as const

/** Message flag: only the player who used the command sees the message. */
export const EPHEMERAL = 64

/** No message of ours pings anyone, whatever a report title holds (`@everyone`), unless it names them. */
export const NO_MENTIONS = { parse: [] as string[] }

/** The `/report` command's name, and the custom ids of its modal, fields and buttons. */
export const REPORT_COMMAND = 'report'
export const CustomId = {
  modal: 'glitchbox_report',
  title: 'title',
  description: 'description',
  steps: 'steps',
  screenshots: 'screenshots',
  vote: 'glitchbox_vote',
  file: 'glitchbox_file',
} as const
