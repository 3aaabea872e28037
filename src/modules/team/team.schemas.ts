import * as z from 'zod'

/** `all` projects of the account, or the ids of the projects a member is limited to. */
export const projectAccessSchema = z
  .union([z.literal('all'), z.array(z.string().min(1).max(64)).max(500)])
  .describe('"all": every project of the account (the default); a list of project ids: only those, every other project answers 404 and sends no mail')

export const renameAccountBody = z.object({ name: z.string().trim().min(1).max(100) })
export const changeMemberBody = z.object({ role: z.enum(['admin', 'member']).optional(), project_access: projectAccessSchema.optional() })
export const inviteBody = z.object({
  email: z.string().trim().email(),
  role: z.enum(['admin', 'member']).default('member'),
  project_access: projectAccessSchema.optional().describe('The projects the invitee will see; default: those the inviter sees ("all" for owners and admins)'),
})
export const acceptInviteBody = z.object({ token: z.string().min(1).max(200) })
