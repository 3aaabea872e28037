import type { AppDeps } from '../../app-deps'
import { badGateway, badRequest, notFound } from '../../http/errors'
import { recordAudit } from '../activity/activity.service'
import { PlanLimitError } from '../auth/plans'
import { createProjectsRepository } from '../projects/projects.repository'
import { createReportsRepository } from '../reports/reports.repository'
import { createReport } from '../reports/reports.service'
import type { Category, Priority } from '../reports/reports.types'
import { contextOf } from './integrations.delivery'
import { createIntegrationsRepository, type Integration } from './integrations.repository'
import { PROVIDERS, providerInfo } from './providers/catalog'
import { ProviderError } from './providers/provider.types'
import type { FetchedReview, StoreProvider } from './providers/store'
import type { ListStoreReviewsQuery } from './store-reviews.schemas'
import { createStoreReviewsRepository, type StoreReview } from './store-reviews.repository'

type Deps = Pick<AppDeps, 'db' | 'config' | 'clock' | 'logger' | 'events' | 'secrets'>
type Row = Integration
const PER_PAGE = 50

const reviews = (deps: Pick<AppDeps, 'db'>) => createStoreReviewsRepository({ db: deps.db })

/** The store provider of a key, or undefined for any other kind. */
export const storeProvider = (key: string): StoreProvider | undefined => {
  const p = PROVIDERS[key]
  return p?.kind === 'store' ? (p as StoreProvider) : undefined
}

/** Words in a review that point at a report category; the first match wins, else 'other'. */
const CATEGORY_WORDS: [Category, RegExp][] = [
  ['crash', /\b(crash\w*|freez\w*|frozen|won'?t (start|open|launch)|force clos\w*|black screen)\b/i],
  ['performance', /\b(lag\w*|slow\w*|fps|stutter\w*|battery|overheat\w*|framerate|frame rate)\b/i],
  ['network', /\b(connect\w*|server\w*|offline|disconnect\w*|online|multiplayer|login|log in|sync\w*)\b/i],
  ['audio', /\b(sound|audio|music|volume)\b/i],
  ['visual', /\b(graphic\w*|texture\w*|glitch\w*|render\w*|visual\w*|display)\b/i],
  ['ui', /\b(button\w*|menu\w*|ui|interface|font\w*|text too)\b/i],
  ['gameplay', /\b(level\w*|boss\w*|gameplay|control\w*|stuck|progress|save\w*|quest\w*)\b/i],
]

/** The report category a review's text suggests. */
export function categoryOfReview(text: string): Category {
  return CATEGORY_WORDS.find(([, re]) => re.test(text))?.[0] ?? 'other'
}

/** One star files a medium report, two stars a low one. */
const priorityOf = (rating: number): Priority => (rating <= 1 ? 'medium' : 'low')

/**
 * `review_bugs`: files each stored one- or two-star review of the connection's store that has not been
 * filed yet as a report (source system, category from its words), each in its own write so a
 * reached report quota stops the filing without losing the import; returns how many were filed.
 */
async function fileLowStarReviews(deps: Deps, row: Row, provider: StoreProvider): Promise<number> {
  const accountId = await createProjectsRepository({ db: deps.db }).accountIdOf(row.projectId)
  if (!accountId) return 0
  const project = { id: row.projectId, accountId }
  const pending = await reviews(deps).unfiledLowStar(row.projectId, row.provider)
  let filed = 0
  for (const r of pending) {
    const text = [r.title, r.body].filter(Boolean).join('\n')
    const summary = (r.title || r.body || 'No text').replace(/\s+/g, ' ').trim()
    const stars = '★'.repeat(r.rating)
    try {
      const done = await deps.db.write(async (tx) => {
        // Claimed first: the hourly job (on the job thread) and a sync request may file at the same time.
        if (!(await reviews(deps).claimFiling(r.id, deps.clock.now()))) return false
        const report = await createReport(deps, tx, project, {
          title: `${provider.name} review ${stars}: ${summary}`.slice(0, 200),
          description: [
            text || '(The review has no text.)',
            '',
            `${r.rating} of 5 stars on ${provider.name}${r.author ? ` by ${r.author}` : ''}, ${r.reviewedAt.toISOString().slice(0, 10)}.`,
            ...(r.territory ? [`Territory: ${r.territory}`] : []),
          ].join('\n'),
          priority: priorityOf(r.rating),
          category: categoryOfReview(text),
          platform: provider.platform,
          gameVersion: r.appVersion ?? undefined,
          deviceInfo: r.device ?? undefined,
          source: 'system',
          reporterName: r.author,
          metadata: { store: r.provider, store_review_id: r.storeReviewId, rating: r.rating },
        })
        await reviews(deps).setReport(r.id, report.id, deps.clock.now())
        return true
      })
      if (done) filed++
    } catch (err) {
      if (err instanceof PlanLimitError) {
        deps.logger.warn('store review filing stopped by the report quota', { integration: row.id, reason: err.reason })
        break
      }
      throw err
    }
  }
  return filed
}

/**
 * One import of a store connection: the reviews the store lists, newest first, until a page holds
 * nothing new (or MAX_PAGES), stored once per store review id,
 * then (with `review_bugs`) one- and two-star reviews filed as reports once each. Throws ProviderError
 * with the store's answer when it refuses.
 */
export async function syncStoreConnection(deps: Deps, row: Row, signal?: AbortSignal) {
  const provider = storeProvider(row.provider)
  if (!provider) throw badRequest(`sync is for store providers (google_play, app_store), not ${row.provider}`)
  const known = async (page: FetchedReview[]) => {
    if (!page.length) return true
    const ids = page.map((r) => r.storeReviewId)
    return (await reviews(deps).countKnown(row.projectId, row.provider, ids)) === ids.length
  }
  const fetched = await provider.fetchReviews(await contextOf(deps, row, signal), known)
  const added = await reviews(deps).saveFetched({ projectId: row.projectId, integrationId: row.id, provider: row.provider }, fetched, deps.clock.now())
  const filed = row.eventTypes.includes('review_bugs') ? await fileLowStarReviews(deps, row, provider) : 0
  return { fetched: fetched.length, new: added, filed }
}

/** `POST …/integrations/{provider}/{id}/sync` on a found connection: 400 unless it is an active store connection, 502 with the store's answer. */
export async function syncNow(deps: Deps, row: Row) {
  if (!storeProvider(row.provider)) throw badRequest(`sync is for store providers (google_play, app_store), not ${providerInfo(row.provider)?.name ?? row.provider}`)
  if (!row.isActive) throw badRequest('the integration is paused; resume it to import reviews')
  try {
    return await syncStoreConnection(deps, row)
  } catch (err) {
    if (err instanceof ProviderError) throw badGateway(err.message)
    throw err
  }
}

const view = (r: StoreReview, reportNumber: number | null) => ({
  id: r.id,
  provider: r.provider,
  integration_id: r.integrationId,
  store_review_id: r.storeReviewId,
  author: r.author,
  rating: r.rating,
  title: r.title,
  body: r.body,
  language: r.language,
  app_version: r.appVersion,
  device: r.device,
  territory: r.territory,
  reviewed_at: r.reviewedAt.toISOString(),
  reply: r.replyBody !== null ? { body: r.replyBody, replied_at: r.repliedAt?.toISOString() ?? null, state: r.replyState } : null,
  report_number: reportNumber,
  created_at: r.createdAt.toISOString(),
})

/** `GET /store-reviews`: a page of 50 of the project's store reviews, newest first, by store and highest rating. */
export async function listStoreReviews(deps: Pick<AppDeps, 'db'>, projectId: string, q: ListStoreReviewsQuery) {
  const page = q.page ?? 1
  const rows = await reviews(deps).page(projectId, { provider: q.provider, maxRating: q.max_rating }, PER_PAGE, (page - 1) * PER_PAGE)
  const numbers = await createReportsRepository({ db: deps.db }).liveNumbers(rows.flatMap((r) => (r.reportId ? [r.reportId] : [])))
  return rows.map((r) => view(r, (r.reportId ? numbers.get(r.reportId) : undefined) ?? null))
}

/** The connection a reply goes through: the one that imported the review, else an active one of the same store. */
async function replyConnection(deps: Pick<AppDeps, 'db'>, review: StoreReview): Promise<Row> {
  const connections = createIntegrationsRepository({ db: deps.db })
  const own = review.integrationId ? await connections.byId(review.integrationId) : undefined
  if (own?.isActive) return own
  const other = await connections.firstActive(review.projectId, review.provider)
  if (other) return other
  throw badRequest(own ? 'the integration is paused; resume it to reply' : 'no active connection to this store; connect it to reply')
}

/**
 * `POST /store-reviews/{reviewId}/reply`: posts the public reply through the store, replacing an
 * earlier one; 400 beyond the store's length limit, 404 for an unknown review, 502 with the store's answer.
 */
export async function replyToReview(deps: Deps, project: { id: string; accountId: string }, actorId: string, reviewId: string, body: string) {
  const review = await reviews(deps).find(project.id, reviewId)
  if (!review) throw notFound('review not found')
  const provider = storeProvider(review.provider)
  if (!provider) throw notFound('review not found')
  if (body.length > provider.replyLimit) throw badRequest(`body: ${provider.name} replies are at most ${provider.replyLimit} characters (this one has ${body.length})`)
  const row = await replyConnection(deps, review)
  let posted
  try {
    posted = await provider.reply(await contextOf(deps, row), { storeReviewId: review.storeReviewId, replyExternalId: review.replyExternalId }, body)
  } catch (err) {
    if (err instanceof ProviderError) throw badGateway(err.message)
    throw err
  }
  const replaced = review.replyBody !== null
  const now = deps.clock.now()
  await deps.db.write(async (tx) => {
    await reviews(deps).saveReply(review.id, { replyBody: posted.body, repliedAt: posted.at, replyExternalId: posted.externalId ?? review.replyExternalId, replyState: posted.state, updatedAt: now })
    await recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action: replaced ? 'store_review.reply_replaced' : 'store_review.replied', target: review.id, details: { provider: review.provider } })
  })
  return { message: replaced ? 'Reply replaced' : 'Reply posted' }
}
