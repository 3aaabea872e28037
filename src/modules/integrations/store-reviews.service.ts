import { and, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import { badGateway, badRequest, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { recordAudit } from '../activity/activity.service'
import { PlanLimitError } from '../billing/plans'
import { projects } from '../projects/projects.table'
import type { Category, Priority } from '../reports/reports.table'
import { createReport } from '../reports/reports.service'
import { reports } from '../reports/reports.table'
import { contextOf } from './integrations.delivery'
import { integrations } from './integrations.table'
import { PROVIDERS, providerInfo } from './providers/catalog'
import { ProviderError } from './providers/provider.types'
import type { FetchedReview, StoreProvider } from './providers/store'
import type { ListStoreReviewsQuery } from './store-reviews.schemas'
import { storeReviews } from './store-reviews.table'

type Deps = Pick<AppDeps, 'db' | 'config' | 'clock' | 'logger' | 'events' | 'secrets'>
type Row = typeof integrations.$inferSelect
const PER_PAGE = 50

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

/** Stores a fetched page of reviews: new ones inserted, known ones refreshed (edits, replies); returns how many were new. */
function storeFetched(deps: Deps, row: Row, fetched: FetchedReview[]): number {
  const now = deps.clock.now()
  let added = 0
  deps.db.transaction((tx) => {
    for (const r of fetched) {
      const values = {
        author: r.author,
        rating: r.rating,
        title: r.title,
        body: r.body,
        language: r.language,
        appVersion: r.appVersion,
        device: r.device,
        territory: r.territory,
        reviewedAt: r.reviewedAt,
        ...(r.reply && { replyBody: r.reply.body, repliedAt: r.reply.at, replyExternalId: r.reply.externalId, replyState: r.reply.state }),
      }
      const inserted = tx
        .insert(storeReviews)
        .values({ id: newId(), projectId: row.projectId, integrationId: row.id, provider: row.provider, storeReviewId: r.storeReviewId, ...values, createdAt: now, updatedAt: now })
        .onConflictDoNothing()
        .returning({ id: storeReviews.id })
        .all()
      if (inserted.length) added++
      else
        tx.update(storeReviews)
          .set({ ...values, integrationId: sql`coalesce(${storeReviews.integrationId}, ${row.id})`, updatedAt: now })
          .where(and(eq(storeReviews.projectId, row.projectId), eq(storeReviews.provider, row.provider), eq(storeReviews.storeReviewId, r.storeReviewId)))
          .run()
    }
  })
  return added
}

/**
 * `review_bugs`: files each stored one- or two-star review of the connection's store that has not been
 * filed yet as a report (source system, category from its words), each in its own transaction so a
 * reached report quota stops the filing without losing the import; returns how many were filed.
 */
function fileLowStarReviews(deps: Deps, row: Row, provider: StoreProvider): number {
  const project = deps.db.select({ id: projects.id, accountId: projects.accountId }).from(projects).where(eq(projects.id, row.projectId)).get()
  if (!project) return 0
  const pending = deps.db
    .select()
    .from(storeReviews)
    .where(and(eq(storeReviews.projectId, row.projectId), eq(storeReviews.provider, row.provider), lte(storeReviews.rating, 2), isNull(storeReviews.filedAt)))
    .orderBy(storeReviews.reviewedAt, sql`rowid`)
    .all()
  let filed = 0
  for (const r of pending) {
    const text = [r.title, r.body].filter(Boolean).join('\n')
    const summary = (r.title || r.body || 'No text').replace(/\s+/g, ' ').trim()
    const stars = '★'.repeat(r.rating)
    try {
      const done = deps.db.transaction((tx) => {
        // Claimed first: the hourly job (on the job thread) and a sync request may file at the same time.
        const claimed = tx
          .update(storeReviews)
          .set({ filedAt: deps.clock.now() })
          .where(and(eq(storeReviews.id, r.id), isNull(storeReviews.filedAt)))
          .returning({ id: storeReviews.id })
          .all()
        if (!claimed.length) return false
        const report = createReport(deps, tx, project, {
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
        tx.update(storeReviews).set({ reportId: report.id, updatedAt: deps.clock.now() }).where(eq(storeReviews.id, r.id)).run()
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
  const known = (page: FetchedReview[]) => {
    if (!page.length) return true
    const ids = page.map((r) => r.storeReviewId)
    const n = deps.db
      .select({ n: sql<number>`count(*)` })
      .from(storeReviews)
      .where(and(eq(storeReviews.projectId, row.projectId), eq(storeReviews.provider, row.provider), inArray(storeReviews.storeReviewId, ids)))
      .get()!.n
    return n === ids.length
  }
  const fetched = await provider.fetchReviews(await contextOf(deps, row, signal), known)
  const added = storeFetched(deps, row, fetched)
  const filed = row.eventTypes.includes('review_bugs') ? fileLowStarReviews(deps, row, provider) : 0
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

const view = (r: typeof storeReviews.$inferSelect, reportNumber: number | null) => ({
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
export function listStoreReviews(deps: Pick<AppDeps, 'db'>, projectId: string, q: ListStoreReviewsQuery) {
  const page = q.page ?? 1
  return deps.db
    .select({ r: storeReviews, number: reports.reportNumber })
    .from(storeReviews)
    .leftJoin(reports, and(eq(reports.id, storeReviews.reportId), isNull(reports.deletedAt)))
    .where(and(eq(storeReviews.projectId, projectId), q.provider ? eq(storeReviews.provider, q.provider) : undefined, q.max_rating ? lte(storeReviews.rating, q.max_rating) : undefined))
    .orderBy(desc(storeReviews.reviewedAt), sql.raw('"store_reviews".rowid desc'))
    .limit(PER_PAGE)
    .offset((page - 1) * PER_PAGE)
    .all()
    .map((x) => view(x.r, x.number ?? null))
}

/** The connection a reply goes through: the one that imported the review, else an active one of the same store. */
function replyConnection(deps: Pick<AppDeps, 'db'>, review: typeof storeReviews.$inferSelect): Row {
  const own = review.integrationId ? deps.db.select().from(integrations).where(eq(integrations.id, review.integrationId)).get() : undefined
  if (own?.isActive) return own
  const other = deps.db
    .select()
    .from(integrations)
    .where(and(eq(integrations.projectId, review.projectId), eq(integrations.provider, review.provider), eq(integrations.isActive, true)))
    .orderBy(integrations.createdAt)
    .get()
  if (other) return other
  throw badRequest(own ? 'the integration is paused; resume it to reply' : 'no active connection to this store; connect it to reply')
}

/**
 * `POST /store-reviews/{reviewId}/reply`: posts the public reply through the store, replacing an
 * earlier one; 400 beyond the store's length limit, 404 for an unknown review, 502 with the store's answer.
 */
export async function replyToReview(deps: Deps, project: { id: string; accountId: string }, actorId: string, reviewId: string, body: string) {
  const review = deps.db.select().from(storeReviews).where(and(eq(storeReviews.id, reviewId), eq(storeReviews.projectId, project.id))).get()
  if (!review) throw notFound('review not found')
  const provider = storeProvider(review.provider)
  if (!provider) throw notFound('review not found')
  if (body.length > provider.replyLimit) throw badRequest(`body: ${provider.name} replies are at most ${provider.replyLimit} characters (this one has ${body.length})`)
  const row = replyConnection(deps, review)
  let posted
  try {
    posted = await provider.reply(await contextOf(deps, row), { storeReviewId: review.storeReviewId, replyExternalId: review.replyExternalId }, body)
  } catch (err) {
    if (err instanceof ProviderError) throw badGateway(err.message)
    throw err
  }
  const replaced = review.replyBody !== null
  const now = deps.clock.now()
  deps.db.transaction((tx) => {
    tx.update(storeReviews)
      .set({ replyBody: posted.body, repliedAt: posted.at, replyExternalId: posted.externalId ?? review.replyExternalId, replyState: posted.state, updatedAt: now })
      .where(eq(storeReviews.id, review.id))
      .run()
    recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action: replaced ? 'store_review.reply_replaced' : 'store_review.replied', target: review.id, details: { provider: review.provider } })
  })
  return { message: replaced ? 'Reply replaced' : 'Reply posted' }
}
