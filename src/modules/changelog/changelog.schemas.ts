import * as z from 'zod'

export const createEntryBody = z.object({
  title: z.string().trim().min(1).max(200),
  body: z.string().max(50_000).optional(),
  version: z.string().max(50).optional(),
  publish: z.boolean().optional(),
})
export type CreateEntry = z.infer<typeof createEntryBody>

export const updateEntryBody = createEntryBody.partial()
export type UpdateEntry = z.infer<typeof updateEntryBody>
