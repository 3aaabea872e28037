import * as z from 'zod'

export const STORE_PROVIDERS = ['google_play', 'app_store'] as const

export const listStoreReviewsQuery = z.object({
  provider: z.enum(STORE_PROVIDERS).optional(),
  max_rating: z.coerce.number().int().min(1).max(5).optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
})
export type ListStoreReviewsQuery = z.infer<typeof listStoreReviewsQuery>

/** The store checks its own limit (350 characters on Google Play); this bounds what is read. */
export const replyBody = z.object({ body: z.string().trim().min(1).max(10_000) })
