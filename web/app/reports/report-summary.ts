/** The report page's header as a person reads it: counts, times and places in words (pure, tested). */

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** `1234` → "1,234": counts as people write them. */
export const countText = (n: number) => n.toLocaleString('en-US')

/** "1 event", "27 events". */
export const plural = (n: number, one: string, many = `${one}s`) => `${countText(n)} ${n === 1 ? one : many}`

/** How long ago `iso` was, as a glance reads it: "just now", "4 min ago", "3 h ago", "3 d ago", "5 mo ago", "2 y ago". */
export function ago(iso: string, now: number): string {
  const ms = now - Date.parse(iso)
  if (!Number.isFinite(ms)) return ''
  if (ms < MINUTE) return 'just now'
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min ago`
  if (ms < DAY) return `${Math.floor(ms / HOUR)} h ago`
  if (ms < 60 * DAY) return `${Math.floor(ms / DAY)} d ago`
  if (ms < 365 * DAY) return `${Math.floor(ms / (30 * DAY))} mo ago`
  return `${Math.floor(ms / (365 * DAY))} y ago`
}

export interface Share {
  value: string
  count: number
}

/** "Windows 18, Linux 4, 2 more": the platforms with most occurrences first, unnamed ones as "unknown". */
export function platformsText(platforms: Share[], shown = 3): string {
  const named = platforms.map((p) => `${p.value || 'unknown'} ${countText(p.count)}`)
  return named.length > shown ? `${named.slice(0, shown).join(', ')}, ${named.length - shown} more` : named.join(', ')
}

export interface SummaryInput {
  occurrence_count: number
  player_count: number
  first_seen: string
  last_seen: string
  first_version: string
  last_version: string
}

/** One fact of the header; `at` is the exact time a relative one stands for (shown on hover). */
export interface SummaryPart {
  text: string
  at?: string
}

/**
 * The header's facts: "27 events", "22 players", "first seen 3 d ago in 1.2.0", "last seen 4 min ago
 * in 1.3.0-beta", then the platforms when known. Players are left out when no occurrence named one
 * (a report filed by the team); "last seen" when there was only one occurrence.
 */
export function summaryParts(r: SummaryInput, platforms: Share[] | null, now: number): SummaryPart[] {
  const parts: SummaryPart[] = [{ text: plural(r.occurrence_count, 'event') }]
  if (r.player_count > 0) parts.push({ text: plural(r.player_count, 'player') })
  const seen = (what: string, at: string, version: string) => ({ text: `${what} ${ago(at, now)}${version ? ` in ${version}` : ''}`, at })
  parts.push(seen('first seen', r.first_seen, r.first_version))
  if (r.occurrence_count > 1) parts.push(seen('last seen', r.last_seen, r.last_version))
  if (platforms?.some((p) => p.value)) parts.push({ text: platformsText(platforms) })
  return parts
}

/**
 * Which client filed an occurrence, in words, when it was not Glitchbox's own SDK: "via Sentry SDK
 * (sentry.cocoa 8.1.0)", "via Sentry minidump upload", "via Unreal CrashReportClient (1.0)". Null
 * for Glitchbox's SDK, the widget and the API (no client recorded).
 */
export function clientText(client: string | null | undefined): string | null {
  const c = client?.trim()
  if (!c) return null
  if (c === 'sentry') return 'via Sentry SDK'
  if (c === 'minidump upload') return 'via Sentry minidump upload'
  const unreal = /^unreal-crash-reporter(?:\s+(.+))?$/.exec(c)
  if (unreal) return `via Unreal CrashReportClient${unreal[1] ? ` (${unreal[1]})` : ''}`
  if (/^sentry[.\w-]*(\s|$)/.test(c)) return `via Sentry SDK (${c})`
  return `via ${c}`
}

/**
 * A measurement rounded to what a person reads: three significant digits below 100 ("43.7",
 * "0.123", "7.25"), whole numbers above ("1,234"); null and non-numbers as a dash.
 */
export function readable(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–'
  if (Math.abs(x) >= 100) return countText(Math.round(x))
  if (x === 0) return '0'
  return String(Number(x.toPrecision(3)))
}
