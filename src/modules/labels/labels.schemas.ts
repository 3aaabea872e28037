import * as z from 'zod'

const name = z.string().trim().min(1, 'must not be empty').max(50)
const color = z
  .string()
  .trim()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex color like #2E5BFF')
  // #RGB is stored as #RRGGBB so equal colors compare equal.
  .transform((c) => (c.length === 4 ? `#${[...c.slice(1)].map((d) => d + d).join('')}` : c).toUpperCase())

export const createLabelBody = z.object({ name, color: color.optional() })
export type CreateLabelBody = z.infer<typeof createLabelBody>

export const updateLabelBody = z.object({ name: name.optional(), color: color.optional() })
export type UpdateLabelBody = z.infer<typeof updateLabelBody>

export const applyLabelBody = z.object({ label_id: z.string().trim().min(1, 'must not be empty').max(64) })
