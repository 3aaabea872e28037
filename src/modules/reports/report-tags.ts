/**
 * A submission's tags: the key/value pairs a game attaches to an event so a team can slice by them
 * (`level=caves`, `gpu=RTX 3060`). Sentry events bring theirs as `tags` (kept in metadata by the
 * event mapping: an object, or Sentry's older list of `[key, value]` pairs); Glitchbox's SDK submit
 * takes them as `metadata.tags` or, as the Bugnet SDK names them, `metadata.custom_fields`. Each
 * occurrence keeps its tags (ingest's occurrence_tags) for the report page's facet, and each tag is a
 * facet of its report (report-facets.ts) that `tag:key=value` searches.
 */

/** Sentry's limits: a key is at most 32 characters, a value at most 200. */
export const MAX_TAG_KEY = 32
export const MAX_TAG_VALUE = 200
/** Most tags kept per occurrence: each is one facet row and one tag row. */
export const MAX_TAGS = 50

const scalar = (v: unknown): string | null => (typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'boolean' ? String(v) : null)

/** The pairs of a tags value: an object's scalar entries, or a list of `[key, value]` pairs. */
function pairsOf(tags: unknown): [unknown, unknown][] {
  if (Array.isArray(tags)) return tags.filter((t): t is [unknown, unknown] => Array.isArray(t) && t.length === 2)
  if (tags && typeof tags === 'object') return Object.entries(tags)
  return []
}

/**
 * The tags of a submission's metadata, as `[key, value]` pairs: `tags` first, then `custom_fields`
 * (a key in both keeps its tag). Keys are cut to MAX_TAG_KEY and may not hold `=` (a search says
 * `tag:key=value`); values are scalars cut to MAX_TAG_VALUE; empty ones, nested objects and pairs
 * past MAX_TAGS are left out (they stay in the metadata).
 */
export function tagsOfMetadata(metadata: unknown): [string, string][] {
  if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) return []
  const m = metadata as Record<string, unknown>
  const out = new Map<string, string>()
  for (const [k, v] of [...pairsOf(m.tags), ...pairsOf(m.custom_fields)]) {
    const key = scalar(k)?.slice(0, MAX_TAG_KEY)
    const value = scalar(v)?.slice(0, MAX_TAG_VALUE)
    if (!key || !value || key.includes('=') || out.has(key)) continue
    out.set(key, value)
    if (out.size === MAX_TAGS) break
  }
  return [...out]
}

/** A tag as its facet value: `key=value`, what `tag:` searches for. */
export const tagFacetValue = ([key, value]: [string, string]) => `${key}=${value}`
