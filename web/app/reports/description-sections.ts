/** A report description split into the player's text and the sections game SDKs and native crashes append to auto-filed errors. */
export interface DescriptionSections {
  text: string
  stackTrace: string | null
  recentLogs: string | null
  /** A native crash's other threads (`Thread <id>` headings, each with its frames), after its crashed stack. */
  otherThreads: string | null
}

// A marker must stand on its own line: `--- Stack Trace ---` quoted inside a sentence is just text.
const MARKER = /^[ \t]*-{3}[ \t]*(Stack[ \t]*Trace|Recent[ \t]*Logs|Other[ \t]*Threads)[ \t]*-{3}[ \t]*$/gim

type Kind = 'stack' | 'logs' | 'threads'
const kindOf = (marker: string): Kind => (/^stack/i.test(marker) ? 'stack' : /^recent/i.test(marker) ? 'logs' : 'threads')

const trimBlankLines = (s: string) => s.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd()

/**
 * Splits `description` at its `--- Stack Trace ---`, `--- Recent Logs ---` and `--- Other Threads ---`
 * lines (any order; a repeated marker starts a new section that is appended to the first of its kind).
 */
export function splitDescription(description: string): DescriptionSections {
  const markers = [...description.matchAll(MARKER)]
  if (markers.length === 0) return { text: description.trimEnd(), stackTrace: null, recentLogs: null, otherThreads: null }
  const parts: Record<Kind, string[]> = { stack: [], logs: [], threads: [] }
  markers.forEach((m, i) => {
    const start = m.index + m[0].length
    const end = i + 1 < markers.length ? markers[i + 1]!.index : description.length
    parts[kindOf(m[1]!)].push(trimBlankLines(description.slice(start, end)))
  })
  const join = (xs: string[]) => (xs.length ? xs.filter(Boolean).join('\n\n') : null)
  return { text: description.slice(0, markers[0]!.index).trimEnd(), stackTrace: join(parts.stack), recentLogs: join(parts.logs), otherThreads: join(parts.threads) }
}
