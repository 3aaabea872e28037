import * as z from 'zod'

/** A Steam app id: a positive integer, as a number or a string of digits. */
const appId = z.union([z.number().int().positive().max(2 ** 31 - 1), z.string().regex(/^[1-9][0-9]{0,9}$/, 'must be a positive integer').transform(Number)])

export const connectSteamBody = z.object({ app_id: appId, sync_enabled: z.boolean().optional() })
export type ConnectSteamBody = z.infer<typeof connectSteamBody>

export const updateSteamBody = z.object({ sync_enabled: z.boolean() })

export const reviewsQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).optional(),
  filter: z.enum(['all', 'positive', 'negative']).optional(),
})

export const daysQuery = z.object({ days: z.coerce.number().int().min(1).max(365).optional() })
