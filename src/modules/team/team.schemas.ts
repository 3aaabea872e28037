import * as z from 'zod'

export const renameAccountBody = z.object({ name: z.string().trim().min(1).max(100) })
export const changeRoleBody = z.object({ role: z.enum(['admin', 'member']) })
export const inviteBody = z.object({ email: z.string().trim().email(), role: z.enum(['admin', 'member']).default('member') })
export const acceptInviteBody = z.object({ token: z.string().min(1).max(200) })
