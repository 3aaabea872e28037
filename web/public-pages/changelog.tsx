import { shortDate } from './labels'
import { type Branding, Heading } from './layout'
import { renderMarkdown } from './markdown'

export interface ChangelogEntry {
  id: string
  title: string
  body: string
  version: string
  published_at: string | null
}

/** Published changelog entries, newest first, bodies rendered from markdown. */
export function ChangelogPage(p: { slug: string; title: string; brand: Branding; entries: ChangelogEntry[] }) {
  return (
    <>
      <Heading title={p.title} brand={p.brand} />
      <p class="lead">
        <a href={`/changelog/${encodeURIComponent(p.slug)}/feed.xml`}>Subscribe (Atom feed)</a>
      </p>
      {p.entries.length === 0 ? (
        <p class="card">Nothing published yet.</p>
      ) : (
        p.entries.map((e) => (
          <article class="card entry" id={`entry-${e.id}`} aria-labelledby={`h-${e.id}`}>
            <h2 id={`h-${e.id}`}>
              {e.title}
              {e.version && <span class="tag"> {e.version}</span>}
            </h2>
            {e.published_at && (
              <p class="meta">
                <time dateTime={e.published_at}>{shortDate(e.published_at)}</time>
              </p>
            )}
            <div class="md" dangerouslySetInnerHTML={{ __html: renderMarkdown(e.body) }} />
          </article>
        ))
      )}
    </>
  )
}
