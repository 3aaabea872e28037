import { modalSubmitInteraction, type SubmittedComponent } from './discord.schemas'
import { ComponentType, CustomId, ResponseType, TextInputStyle } from './discord-api'
import { attachmentOf, contextOf, invalidInteraction, type InteractionContext, type PlayerAttachment } from './discord-interaction'

/** Longest title and texts the modal accepts (Discord allows at most 4000 characters per input). */
export const TITLE_MAX = 100
export const DESCRIPTION_MAX = 4000
export const STEPS_MAX = 2000
/** Most screenshots one report takes from the modal. */
export const MAX_SCREENSHOTS = 3

/** A short opaque key carried through a custom id (Discord keeps custom ids to 100 characters). */
const CARRY = /^[A-Za-z0-9_-]{1,64}$/

/** `prefix` or `prefix:key`; throws on a key that would not survive the round trip. */
export function customIdWith(prefix: string, key?: string): string {
  if (key === undefined) return prefix
  if (!CARRY.test(key)) throw new Error(`a custom id key must match ${CARRY}`)
  return `${prefix}:${key}`
}

/** A text input inside a Label (a label's text is its own; inputs in labels carry none). */
const textField = (o: { label: string; description?: string; id: string; style: number; max: number; required: boolean; placeholder?: string }) => ({
  type: ComponentType.Label,
  label: o.label,
  ...(o.description ? { description: o.description } : {}),
  component: { type: ComponentType.TextInput, custom_id: o.id, style: o.style, min_length: o.required ? 1 : 0, max_length: o.max, required: o.required, ...(o.placeholder ? { placeholder: o.placeholder } : {}) },
})

/**
 * The answer to `/report`: a modal (response type 9) with the title, what happened, the steps
 * (optional) and a screenshot upload (a File Upload inside a Label). `carry` is a key of the
 * caller's (e.g. a screenshot given as the command's option) that comes back with the submission.
 */
export function reportModal(opts: { carry?: string } = {}) {
  return {
    type: ResponseType.Modal,
    data: {
      custom_id: customIdWith(CustomId.modal, opts.carry),
      title: 'Report a bug',
      components: [
        textField({ label: 'Title', description: 'One line: what went wrong?', id: CustomId.title, style: TextInputStyle.Short, max: TITLE_MAX, required: true, placeholder: 'The boss fight freezes after the cutscene' }),
        textField({ label: 'What happened?', id: CustomId.description, style: TextInputStyle.Paragraph, max: DESCRIPTION_MAX, required: true }),
        textField({ label: 'Steps to reproduce', description: 'Optional: how can we make it happen again?', id: CustomId.steps, style: TextInputStyle.Paragraph, max: STEPS_MAX, required: false }),
        {
          type: ComponentType.Label,
          label: 'Screenshot',
          description: `Optional: up to ${MAX_SCREENSHOTS} images`,
          component: { type: ComponentType.FileUpload, custom_id: CustomId.screenshots, min_values: 0, max_values: MAX_SCREENSHOTS, required: false },
        },
      ],
    },
  }
}

/** A submitted `/report` modal: the texts, the uploaded files and who sent them. */
export interface ReportSubmission extends InteractionContext {
  title: string
  description: string
  steps: string | null
  attachments: PlayerAttachment[]
  /** The key given to reportModal, if any. */
  carry: string | null
}

/** Every input of a submitted modal, whether Discord nests it in a Label or in an action row. */
function inputs(components: readonly SubmittedComponent[], out = new Map<string, SubmittedComponent>(), depth = 0): Map<string, SubmittedComponent> {
  if (depth > 3) return out
  for (const c of components) {
    if (c.custom_id !== undefined && (c.value !== undefined || c.values !== undefined)) out.set(c.custom_id, c)
    if (c.component) inputs([c.component], out, depth + 1)
    if (c.components) inputs(c.components, out, depth + 1)
  }
  return out
}

/** Parses a modal submit interaction (type 5) of the `/report` modal; throws a 400 for any other body. */
export function parseReportSubmission(payload: unknown): ReportSubmission {
  const parsed = modalSubmitInteraction.safeParse(payload)
  if (!parsed.success) throw invalidInteraction('the modal submission has the wrong shape')
  const i = parsed.data
  const [prefix, carry, ...rest] = i.data.custom_id.split(':')
  if (prefix !== CustomId.modal || rest.length || (carry !== undefined && !CARRY.test(carry))) throw invalidInteraction('it is not the /report form')
  const fields = inputs(i.data.components)
  const text = (id: string, max: number) => fields.get(id)?.value?.trim().slice(0, max) || null
  const title = text(CustomId.title, TITLE_MAX)
  const description = text(CustomId.description, DESCRIPTION_MAX)
  if (!title || !description) throw invalidInteraction('the title and what happened are required')
  const resolved = i.data.resolved?.attachments ?? {}
  const ids = fields.get(CustomId.screenshots)?.values ?? []
  // Own keys only: an id such as `constructor` must not find Object's.
  const attachments = [...new Set(ids)].flatMap((id) => (Object.hasOwn(resolved, id) ? [attachmentOf(resolved[id]!)] : [])).slice(0, MAX_SCREENSHOTS)
  return { ...contextOf(i), title, description, steps: text(CustomId.steps, STEPS_MAX), attachments, carry: carry ?? null }
}
