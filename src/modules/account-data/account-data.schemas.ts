import * as z from 'zod'
import { API_TOKEN_SCOPES } from '../auth/api-tokens'

export const deleteAccountBody = z.object({ confirmation: z.literal('DELETE', { error: 'must be the text DELETE' }) })

export const apiTokenBody = z.object({
  name: z.string().trim().min(1, { error: 'must not be empty' }).max(100),
  scopes: z.array(z.enum(API_TOKEN_SCOPES)).min(1, { error: 'must name at least one scope' }).max(API_TOKEN_SCOPES.length * 2),
  /** The slug of the one project the token acts on; omitted or null: every project its user can see. */
  project: z.string().trim().min(1).max(200).nullish(),
})

export const apiTokenParams = z.object({ id: z.string().min(1).max(64) })
