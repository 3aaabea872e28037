import * as z from 'zod'

export const overridesBody = z.object({
  permissions: z.record(z.string(), z.boolean()).optional(),
  groups: z.record(z.string(), z.boolean()).optional(),
  reset: z.boolean().optional(),
})

/** The project-scoped PUT names the member in the body. */
export const projectOverridesBody = overridesBody.extend({ user_id: z.string().min(1) })
export const userIdQuery = z.object({ user_id: z.string().min(1) })
