import { CATEGORIES, STATUSES } from '../../src/modules/reports/reports.types'
import { CATEGORY_LABELS, PRIORITY_LABELS, shortDate, STATUS_LABELS } from './labels'
import { type Branding, Heading } from './layout'
import { type VoteTarget, VoteButton, VoteCount } from './vote-button'

/** A report as the public tracker shows it (the public service's shape: no private field exists here). */
export interface PublicBug {
  report_number: number
  title: string
  description: string
  category?: string
  status: string
  priority?: string
  upvotes: number
  comment_count: number
  created_at: string
}

export interface TrackerOptions {
  slug: string
  allowSearch: boolean
  allowUpvotes: boolean
  showCategories: boolean
  showStatusFilter: boolean
  /** The project takes reports from players (public project): the "Report a bug" link shows. */
  canReport: boolean
}

export interface TrackerFilters {
  status?: string
  category?: string
  q?: string
  page: number
}

const TRACKER_PAGE = 25

/** The tracker URL with these filters (empty ones left out), e.g. for paging links. */
export function trackerHref(slug: string, f: Partial<TrackerFilters>): string {
  const qs = new URLSearchParams()
  if (f.status) qs.set('status', f.status)
  if (f.category) qs.set('category', f.category)
  if (f.q) qs.set('q', f.q)
  if (f.page && f.page > 1) qs.set('page', String(f.page))
  const s = qs.toString()
  return `/tracker/${encodeURIComponent(slug)}${s ? `?${s}` : ''}`
}

export const trackerVote = (slug: string, n: number, back: string): VoteTarget => ({
  action: `/tracker/${encodeURIComponent(slug)}/${n}/vote`,
  api: `/api/tracker/${encodeURIComponent(slug)}/bugs/${n}/vote`,
  back,
})

function BugMeta({ bug }: { bug: PublicBug }) {
  return (
    <p class="meta">
      <span class="tag">{STATUS_LABELS[bug.status] ?? bug.status}</span>
      {bug.category && <span>{CATEGORY_LABELS[bug.category] ?? bug.category}</span>}
      {bug.priority && <span>Priority: {PRIORITY_LABELS[bug.priority] ?? bug.priority}</span>}
      <span>
        Reported <time dateTime={bug.created_at}>{shortDate(bug.created_at)}</time>
      </span>
      <span>
        {bug.comment_count} {bug.comment_count === 1 ? 'comment' : 'comments'}
      </span>
    </p>
  )
}

function Filters({ o, f }: { o: TrackerOptions; f: TrackerFilters }) {
  if (!o.allowSearch && !o.showStatusFilter && !o.showCategories) return null
  return (
    <form class="filters card" method="get" action={`/tracker/${encodeURIComponent(o.slug)}`} role="search" aria-label="Filter reports">
      {o.allowSearch && (
        <div>
          <label for="q">Search</label>
          <input id="q" name="q" type="search" value={f.q ?? ''} maxLength={200} />
        </div>
      )}
      {o.showStatusFilter && (
        <div>
          <label for="status">Status</label>
          <select id="status" name="status">
            <option value="">Any status</option>
            {STATUSES.map((s) => (
              <option value={s} selected={f.status === s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
      )}
      {o.showCategories && (
        <div>
          <label for="category">Category</label>
          <select id="category" name="category">
            <option value="">Any category</option>
            {CATEGORIES.map((c) => (
              <option value={c} selected={f.category === c}>
                {CATEGORY_LABELS[c]}
              </option>
            ))}
          </select>
        </div>
      )}
      <button class="btn" type="submit">
        Apply
      </button>
    </form>
  )
}

export interface TrackerPageProps {
  o: TrackerOptions
  f: TrackerFilters
  title: string
  brand: Branding
  description: string
  bugs: PublicBug[]
  total: number
  /** The count stopped at `total` (a very large project): shown as "10000+". */
  totalCapped: boolean
  totalPages: number
  voted: Set<number>
}

/** The public tracker: filters, one page of reports most upvoted first, paging links. */
export function TrackerPage(p: TrackerPageProps) {
  const back = trackerHref(p.o.slug, p.f)
  const filtered = !!(p.f.q || p.f.status || p.f.category)
  // Past a capped count the page count is unknown: a full page may have a next one.
  const hasNext = p.f.page < p.totalPages || (p.totalCapped && p.bugs.length === TRACKER_PAGE)
  return (
    <>
      <Heading title={p.title} brand={p.brand} />
      {p.description && <p class="lead">{p.description}</p>}
      {p.o.canReport && (
        <p>
          <a class="btn" href={`/tracker/${encodeURIComponent(p.o.slug)}/report`}>
            Report a bug
          </a>
        </p>
      )}
      <Filters o={p.o} f={p.f} />
      <p class="meta" aria-live="polite">
        {p.total}
        {p.totalCapped ? '+' : ''} {p.total === 1 ? 'report' : 'reports'}
        {filtered ? ' match' : ''}
        {p.totalPages > 1 || p.f.page > 1 ? ` · page ${p.f.page}${p.totalCapped ? '' : ` of ${p.totalPages}`}` : ''}
      </p>
      {p.bugs.length === 0 ? (
        <p class="card">{filtered ? 'No report matches these filters.' : 'No reports yet.'}</p>
      ) : (
        <ol class="reports" aria-label="Reports">
          {p.bugs.map((b) => (
            <li class="card report">
              {p.o.allowUpvotes ? (
                <VoteButton target={trackerVote(p.o.slug, b.report_number, back)} upvotes={b.upvotes} voted={p.voted.has(b.report_number)} title={b.title} />
              ) : (
                <VoteCount upvotes={b.upvotes} />
              )}
              <div class="body">
                <h2>
                  <a href={`/tracker/${encodeURIComponent(p.o.slug)}/${b.report_number}`}>
                    #{b.report_number} {b.title}
                  </a>
                </h2>
                <BugMeta bug={b} />
              </div>
            </li>
          ))}
        </ol>
      )}
      {(p.totalPages > 1 || p.f.page > 1) && (
        <nav class="pager" aria-label="Pages">
          {p.f.page > 1 ? (
            <a href={trackerHref(p.o.slug, { ...p.f, page: p.f.page - 1 })} rel="prev">
              ← Previous page
            </a>
          ) : (
            <span />
          )}
          <span>
            Page {p.f.page}
            {p.totalCapped ? '' : ` of ${p.totalPages}`}
          </span>
          {hasNext ? (
            <a href={trackerHref(p.o.slug, { ...p.f, page: p.f.page + 1 })} rel="next">
              Next page →
            </a>
          ) : (
            <span />
          )}
        </nav>
      )}
    </>
  )
}

export interface PublicComment {
  id: string
  body: string
  author_name: string | null
  created_at: string
}

/** One public report with its public comments. */
export function ReportPage(p: { o: TrackerOptions; bug: PublicBug & { comments: PublicComment[] }; voted: boolean }) {
  const { bug } = p
  const self = `/tracker/${encodeURIComponent(p.o.slug)}/${bug.report_number}`
  return (
    <>
      <p>
        <a href={`/tracker/${encodeURIComponent(p.o.slug)}`}>← All reports</a>
      </p>
      <article class="card report">
        {p.o.allowUpvotes ? (
          <VoteButton target={trackerVote(p.o.slug, bug.report_number, self)} upvotes={bug.upvotes} voted={p.voted} title={bug.title} />
        ) : (
          <VoteCount upvotes={bug.upvotes} />
        )}
        <div class="body">
          <h1>
            #{bug.report_number} {bug.title}
          </h1>
          <BugMeta bug={bug} />
          <p class="desc">{bug.description}</p>
        </div>
      </article>
      <section aria-labelledby="comments-h">
        <h2 id="comments-h">Comments</h2>
        {bug.comments.length === 0 ? (
          <p class="meta">No comments yet.</p>
        ) : (
          <ol class="comments">
            {bug.comments.map((c) => (
              <li class="card">
                <p class="meta">
                  <strong>{c.author_name ?? 'Team'}</strong>
                  <time dateTime={c.created_at}>{shortDate(c.created_at)}</time>
                </p>
                <p class="desc">{c.body}</p>
              </li>
            ))}
          </ol>
        )}
      </section>
    </>
  )
}
