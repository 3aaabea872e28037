import { CATEGORY_LABELS, STATUS_LABELS } from './labels'
import { VoteButton } from './vote-button'

export interface RoadmapColumn {
  status: string
  bugs: { report_number: number; title: string; category: string; upvotes?: number }[]
}

/** The public roadmap: one column per shown status; vote buttons when the roadmap shows upvotes. */
export function RoadmapPage(p: { slug: string; title: string; description: string; showUpvotes: boolean; columns: RoadmapColumn[]; voted: Set<number>; linkToTracker: boolean }) {
  const self = `/roadmap/${encodeURIComponent(p.slug)}`
  return (
    <>
      <h1>{p.title}</h1>
      {p.description && <p class="lead">{p.description}</p>}
      <div class="columns">
        {p.columns.map((col) => (
          <section aria-labelledby={`col-${col.status}`}>
            <h2 id={`col-${col.status}`}>
              {STATUS_LABELS[col.status] ?? col.status} <span class="meta">({col.bugs.length})</span>
            </h2>
            {col.bugs.length === 0 ? (
              <p class="meta">Nothing here yet.</p>
            ) : (
              <ol class="reports">
                {col.bugs.map((b) => (
                  <li class="card report">
                    {p.showUpvotes && (
                      <VoteButton
                        target={{ action: `${self}/${b.report_number}/vote`, api: `/api/roadmap/${encodeURIComponent(p.slug)}/bugs/${b.report_number}/vote`, back: self }}
                        upvotes={b.upvotes ?? 0}
                        voted={p.voted.has(b.report_number)}
                        title={b.title}
                      />
                    )}
                    <div class="body">
                      <h3>
                        {p.linkToTracker ? (
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
          </section>
        ))}
      </div>
    </>
  )
}
