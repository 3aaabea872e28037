import { compareSemver, parseSemver } from '../../lib/semver'

/** Most game versions a report lists (`reports.versions`). */
export const MAX_VERSIONS = 20

/** The JSON list of a report's versions after an occurrence from `v`: `v` first (most recently seen), at most 20. */
export function withVersion(listJson: string, v: string): string {
  if (!v) return listJson
  const list = parseVersions(listJson)
  if (list[0] === v) return listJson
  return JSON.stringify([v, ...list.filter((x) => x !== v)].slice(0, MAX_VERSIONS))
}

/** Whether a report's versions list already holds `v` (a list only drops versions past 20). */
export const listsVersion = (listJson: string, v: string): boolean => parseVersions(listJson).includes(v)

/** The newest of a report's versions: by semantic version when they all parse, else the one seen last; null when none. */
export function newestVersion(listJson: string): string | null {
  const list = parseVersions(listJson)
  if (list.length === 0) return null
  if (list.every((v) => parseSemver(v))) return list.reduce((a, b) => (compareSemver(b, a) > 0 ? b : a))
  return list[0]!
}

/**
 * Whether an occurrence from `v` reopens a report resolved in `resolved`: yes from a newer build,
 * no from the same or an older one (that build does not have the fix); yes when either is unknown
 * or the two cannot be ordered (not semantic versions), since nothing says the fix is in it.
 */
export function reopensResolved(v: string, resolved: string | null): boolean {
  if (!v || !resolved) return true
  if (v === resolved) return false
  if (parseSemver(v) && parseSemver(resolved)) return compareSemver(v, resolved) > 0
  return true
}

/** A stored `reports.versions` list; [] for anything that is not a JSON list of strings. */
export function parseVersions(json: string): string[] {
  try {
    const list = JSON.parse(json) as unknown
    return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : []
  } catch {
    return []
  }
}
