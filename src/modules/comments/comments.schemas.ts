import * as z from 'zod'

export const createCommentBody = z.object({
  body: z.string().trim().min(1, 'must not be empty').max(20_000),
  is_internal: z.boolean().optional(),
})
export type CreateCommentBody = z.infer<typeof createCommentBody>
