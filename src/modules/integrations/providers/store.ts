import type { Provider, ProviderContext } from './provider.types'

/** A review as a store lists it, in our words. */
export interface FetchedReview {
  storeReviewId: string
  author: string | null
  /** 1 to 5 stars. */
  rating: number
  title: string | null
  body: string
  language: string | null
  appVersion: string | null
  device: string | null
  territory: string | null
  reviewedAt: Date
  /** The developer's public reply the store already shows, if any. */
  reply: { body: string; at: Date | null; externalId: string | null; state: string | null } | null
}

/** What a store answered to a reply. */
export interface PostedReply {
  body: string
  at: Date
  externalId: string | null
  state: string | null
}

/**
 * Store providers (google_play, app_store): no report events (`actionsFor` gives none); the review
 * import (`fetchReviews`, run hourly and by `/sync`) and the public reply (`reply`, which replaces an
 * earlier one) are called by store-reviews.service.ts. Both throw ProviderError with the store's answer.
 */
export interface StoreProvider extends Provider {
  kind: 'store'
  /** Longest reply the store takes, in characters. */
  replyLimit: number
  /** Platform written on reports filed from its reviews. */
  platform: string
  /** The store's reviews, newest first, page by page until `known(page)` says a page holds nothing new. */
  fetchReviews(ctx: ProviderContext, known: (page: FetchedReview[]) => Promise<boolean>): Promise<FetchedReview[]>
  reply(ctx: ProviderContext, review: { storeReviewId: string; replyExternalId: string | null }, body: string): Promise<PostedReply>
}

/** Store reviews are imported, never delivered from report events. */
export const noStoreActions = (): string[] => []

/** Stores take no delivery: the import and replies run outside the delivery queue. */
export function noStoreDelivery(): never {
  throw new Error('store providers deliver nothing; reviews are imported by sync')
}

/** How many pages one import reads at most (the newest reviews come first). */
export const MAX_PAGES = 10
