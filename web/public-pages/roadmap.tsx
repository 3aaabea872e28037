import { CATEGORY_LABELS, STATUS_LABELS } from './labels'
import { type Branding, Heading } from './layout'
import { VoteButton } from './vote-button'

export interface RoadmapColumn {
  status: string
  bugs: { report_number: number; title: string; category: string; upvotes?: number; on_tracker: boolean }[]
  total: number
  page: number
  total_pages: number
}

export interface RoadmapPageProps {
  slug: string
  title: string
  brand: Branding
  description: string
  showUpvotes: boolean
  columns: RoadmapColumn[]
  /** The column a phone shows (its tab); desktops show every column. */
  current: string
  voted: Set<number>
}

const roadmapHref = (slug: string, status: string, page = 1) => `/roadmap/${encodeURIComponent(slug)}?status=${status}${page > 1 ? `&page=${page}` : ''}`

/**
 * The public roadmap: one column per shown status, each paged, with vote buttons when the roadmap
 * shows upvotes. On a phone the columns are tabs (plain links, so they work without JavaScript):
 * one column at a time instead of a long stack.
 */
export function RoadmapPage(p: RoadmapPageProps) {
  const self = `/roadmap/${encodeURIComponent(p.slug)}`
  return (
    <>
      <Heading title={p.title} brand={p.brand} />
      {p.description && <p class="lead">{p.description}</p>}
      <nav class="column-tabs" aria-label="Roadmap columns">
        {p.columns.map((col) => (
          <a href={roadmapHref(p.slug, col.status)} aria-current={col.status === p.current ? 'page' : undefined}>
            {STATUS_LABELS[col.status] ?? col.status} ({col.total})
          </a>
        ))}
      </nav>
      <div class="columns">
        {p.columns.map((col) => (
          <section aria-labelledby={`col-${col.status}`} class={col.status === p.current ? 'column current' : 'column'}>
            <h2 id={`col-${col.status}`}>
              {STATUS_LABELS[col.status] ?? col.status} <span class="meta">({col.total})</span>
            </h2>
            {col.bugs.length === 0 ? (
              <p class="meta">Nothing here yet.</p>
            ) : (
              <ol class="reports">
                {col.bugs.map((b) => (
                  <li class="card report">
                    {p.showUpvotes && (
                      <VoteButton
                        target={{ action: `${self}/${b.report_number}/vote`, api: `/api/roadmap/${encodeURIComponent(p.slug)}/bugs/${b.report_number}/vote`, back: roadmapHref(p.slug, col.status, col.page) }}
                        upvotes={b.upvotes ?? 0}
                        voted={p.voted.has(b.report_number)}
                        title={b.title}
                      />
                    )}
                    <div class="body">
                      <h3>
                        {b.on_tracker ? (
                          <a href={`/tracker/${encodeURIComponent(p.slug)}/${b.report_number}`}>
                            #{b.report_number} {b.title}
                          </a>
                        ) : (
                          `#${b.report_number} ${b.title}`
                        )}
                      </h3>
                      <p class="meta">{CATEGORY_LABELS[b.category] ?? b.category}</p>
                    </div>
                  </li>
                ))}
              </ol>
            )}
            {col.total_pages > 1 && (
              <nav class="pager" aria-label={`Pages of ${STATUS_LABELS[col.status] ?? col.status}`}>
                {col.page > 1 ? (
                  <a href={roadmapHref(p.slug, col.status, col.page - 1)} rel="prev">
                    ← Previous
                  </a>
                ) : (
                  <span />
                )}
                <span>
                  Page {col.page} of {col.total_pages}
                </span>
                {col.page < col.total_pages ? (
                  <a href={roadmapHref(p.slug, col.status, col.page + 1)} rel="next">
                    Next →
                  </a>
                ) : (
                  <span />
                )}
              </nav>
            )}
          </section>
        ))}
      </div>
    </>
  )
}
