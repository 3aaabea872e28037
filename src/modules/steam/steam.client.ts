import { providerUrl } from '../../config/config'
import type { Config } from '../../config/config'
import { describeFailure } from '../../net/safe-fetch'

/** Steam's public store review API needs no key; `GLITCHBOX_PROVIDER_URL_STEAM` moves it (tests). */
export const STEAM_STORE_URL = 'https://store.steampowered.com'
/** Spec 4.7: an outgoing call that has not answered within 10 s has failed. */
export const STEAM_TIMEOUT_MS = 10_000

/** One review as `appreviews` returns it (the fields we keep). */
export interface SteamReview {
  recommendationid: string
  author?: { steamid?: string; playtime_forever?: number; playtime_at_review?: number }
  language?: string
  review?: string
  timestamp_created: number
  timestamp_updated?: number
  voted_up: boolean
  votes_up?: number
  votes_funny?: number
  steam_purchase?: boolean
  received_for_free?: boolean
  written_during_early_access?: boolean
}

/** `query_summary`: on the first page (cursor `*`) it carries the score and all-time counts. */
export interface SteamSummary {
  num_reviews?: number
  review_score?: number
  review_score_desc?: string
  total_positive?: number
  total_negative?: number
  total_reviews?: number
}

export interface SteamPage {
  summary: SteamSummary
  reviews: SteamReview[]
  cursor: string | null
}

/** Steam refused the call or could not be reached; the message says which and carries its answer. */
export class SteamError extends Error {}

/**
 * One page of an app's reviews, newest first (`filter=recent`), 100 a page, every language and
 * purchase type; `cursor` is `*` for the first page, then the one the previous page returned.
 */
export async function fetchReviewPage(config: Pick<Config, 'providerUrls' | 'version'>, appId: number, cursor: string, signal?: AbortSignal): Promise<SteamPage> {
  const base = providerUrl(config, 'steam', STEAM_STORE_URL)
  const query = new URLSearchParams({ json: '1', filter: 'recent', cursor, num_per_page: '100', language: 'all', purchase_type: 'all' })
  const timeout = AbortSignal.timeout(STEAM_TIMEOUT_MS)
  let res: Response
  try {
    res = await fetch(`${base}/appreviews/${appId}?${query}`, {
      headers: { 'User-Agent': `Glitchbox/${config.version}`, Accept: 'application/json' },
      redirect: 'manual',
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
    })
  } catch (err) {
    throw new SteamError(`Steam could not be reached (${describeFailure(err, STEAM_TIMEOUT_MS)})`)
  }
  const text = await res.text().catch(() => '')
  if (res.status >= 300) throw new SteamError(`Steam answered ${res.status}: ${text.trim().slice(0, 300) || 'no body'}`)
  let body: { success?: number; query_summary?: SteamSummary; reviews?: SteamReview[]; cursor?: string }
  try {
    body = JSON.parse(text)
  } catch {
    throw new SteamError('Steam answered with something other than JSON')
  }
  if (body.success !== 1) throw new SteamError(`Steam refused the request for app ${appId} (success: ${body.success ?? 'missing'})`)
  return { summary: body.query_summary ?? {}, reviews: Array.isArray(body.reviews) ? body.reviews : [], cursor: typeof body.cursor === 'string' ? body.cursor : null }
}
