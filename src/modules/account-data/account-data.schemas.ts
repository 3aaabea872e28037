import * as z from 'zod'

export const deleteAccountBody = z.object({ confirmation: z.literal('DELETE', { error: 'must be the text DELETE' }) })
