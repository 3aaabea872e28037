import { useEffect, useMemo } from 'preact/hooks'
import { createResource } from '../api/resource'
import { Async } from '../components'
import { listHref } from './list-query'
import { reportsApi } from './reports-api'

/** The search term of a tag value, quoted when it holds a space or a quote would be needed. */
const tagTerm = (key: string, value: string) => (/[\s"]/.test(`${key}=${value}`) ? `tag:"${key}=${value.replace(/"/g, '')}"` : `tag:${key}=${value}`)

/**
 * The report's tag facet: each tag key its occurrences carried, with its top values and how many
 * occurrences had each; a value links to the list of reports so tagged (`tag:key=value`).
 */
export function ReportTags({ slug, number, stamp }: { slug: string; number: number; stamp: string }) {
  const facet = useMemo(() => createResource((signal) => reportsApi.tags(slug, number, signal)), [slug, number, stamp])
  useEffect(() => void facet.reload(), [facet])
  return (
    <section class="card report-tags" aria-labelledby="tags-title">
      <h2 id="tags-title">Tags</h2>
      <Async resource={facet} label="Loading tags…">
        {({ tags }) =>
          tags.length === 0 ? (
            <p class="muted">No tags. Sentry's `tags` and the SDK's `metadata.tags` or `custom_fields` show here.</p>
          ) : (
            <dl class="details-list">
              {tags.map((t) => (
                <div key={t.key}>
                  <dt>
                    {t.key} <span class="muted small">({t.count.toLocaleString()})</span>
                  </dt>
                  <dd>
                    <ul class="tag-values">
                      {t.values.map((v) => (
                        <li key={v.value}>
                          <a href={listHref(slug, { q: tagTerm(t.key, v.value), page: 1 })}>{v.value}</a> <span class="muted small">{v.count.toLocaleString()}</span>
                        </li>
                      ))}
                    </ul>
                  </dd>
                </div>
              ))}
            </dl>
          )
        }
      </Async>
    </section>
  )
}
