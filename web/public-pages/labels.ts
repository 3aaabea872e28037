/** Player-facing names of report statuses and categories. */
export const STATUS_LABELS: Record<string, string> = {
  open: 'Open',
  in_progress: 'In progress',
  resolved: 'Resolved',
  closed: 'Closed',
  wont_fix: "Won't fix",
}

export const CATEGORY_LABELS: Record<string, string> = {
  crash: 'Crash',
  visual: 'Visual',
  gameplay: 'Gameplay',
  performance: 'Performance',
  audio: 'Audio',
  ui: 'UI',
  network: 'Network',
  other: 'Other',
}

export const PRIORITY_LABELS: Record<string, string> = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low' }

// One formatter for every call: toLocaleDateString builds a new one each time (~50 µs, 25 a page).
// Built on the first call, not at import: the first Intl.DateTimeFormat of a process loads the locale
// data (~13 ms), which start-up would otherwise pay before the server listens (issue 30).
let day: Intl.DateTimeFormat | undefined

/** A date as players read it, e.g. "23 Nov 2026". */
export const shortDate = (iso: string): string => {
  day ??= new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
  return day.format(new Date(iso))
}
