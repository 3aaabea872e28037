import type { ChangelogEntry } from './changelog'
import { renderMarkdown } from './markdown'

/** Escapes text for XML content and attribute values. */
export const xmlEscape = (s: string): string =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')

/** The changelog as an Atom 1.0 feed (RFC 4287): one entry per published entry, content as escaped HTML. */
export function changelogFeed(o: { baseUrl: string; slug: string; name: string; entries: ChangelogEntry[]; now: Date }): string {
  const page = `${o.baseUrl}/changelog/${encodeURIComponent(o.slug)}`
  const updated = o.entries.find((e) => e.published_at)?.published_at ?? o.now.toISOString()
  const entries = o.entries
    .filter((e) => e.published_at)
    .map(
      (e) => `  <entry>
    <id>urn:uuid:${xmlEscape(e.id)}</id>
    <title>${xmlEscape(e.version ? `${e.title} (${e.version})` : e.title)}</title>
    <updated>${e.published_at}</updated>
    <published>${e.published_at}</published>
    <link rel="alternate" type="text/html" href="${xmlEscape(`${page}#entry-${e.id}`)}"/>
    <content type="html">${xmlEscape(renderMarkdown(e.body))}</content>
  </entry>`,
    )
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${xmlEscape(page)}</id>
  <title>${xmlEscape(`${o.name} changelog`)}</title>
  <updated>${updated}</updated>
  <author><name>${xmlEscape(o.name)}</name></author>
  <link rel="self" type="application/atom+xml" href="${xmlEscape(`${page}/feed.xml`)}"/>
  <link rel="alternate" type="text/html" href="${xmlEscape(page)}"/>
  <generator>Glitchbox</generator>
${entries.join('\n')}
</feed>
`
}
