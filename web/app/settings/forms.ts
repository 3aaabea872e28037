/** Helpers shared by the settings forms. Pure. */

/** The fields of `next` that differ from `prev` (shallow; arrays and objects compared as JSON). */
export function changedFields<T extends Record<string, unknown>>(prev: T, next: T): Partial<T> {
  const out: Partial<T> = {}
  for (const key of Object.keys(next) as (keyof T)[]) {
    const a = prev[key]
    const b = next[key]
    const same = typeof a === 'object' || typeof b === 'object' ? JSON.stringify(a) === JSON.stringify(b) : a === b
    if (!same) out[key] = b
  }
  return out
}

/** `#abc` → `#aabbcc`, for `<input type=color>` (which takes only #rrggbb); empty or invalid → the fallback. */
export function toColorInput(value: string, fallback = '#2e5bff'): string {
  const v = value.trim()
  if (/^#[0-9a-fA-F]{6}$/.test(v)) return v.toLowerCase()
  if (/^#[0-9a-fA-F]{3}$/.test(v)) return `#${v[1]}${v[1]}${v[2]}${v[2]}${v[3]}${v[3]}`.toLowerCase()
  return fallback
}

/** Webhook event types: the stored comma-separated string ↔ a set of names. */
export function parseEvents(s: string): string[] {
  return s
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
}
