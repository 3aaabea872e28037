const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/**
 * How long ago, as a person glances at it: "just now", "4 min ago", "3 h ago", "6 d ago"; past 30
 * days the date itself. The exact time belongs in a tooltip beside it (`formatDate`).
 */
export function formatRelative(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return '–'
  const t = new Date(iso).getTime()
  if (Number.isNaN(t)) return '–'
  const ago = now - t
  if (ago < MINUTE) return 'just now'
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`
  if (ago < DAY) return `${Math.floor(ago / HOUR)} h ago`
  if (ago < 30 * DAY) return `${Math.floor(ago / DAY)} d ago`
  return new Date(t).toLocaleDateString(undefined, { dateStyle: 'medium' })
}
