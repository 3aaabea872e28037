/** Version ordering shared by ingest, reports and analytics; pure functions. */

const SEMVER = /^v?(\d+(?:\.\d+)*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]*)?$/

/** A version as numbers and pre-release identifiers, or null when it is not semantic (`1.2`, `v2.0.1-beta.2` are). */
export function parseSemver(v: string): { nums: number[]; pre: string[] } | null {
  const m = SEMVER.exec(v.trim())
  return m ? { nums: m[1]!.split('.').map(Number), pre: m[2] ? m[2].split('.') : [] } : null
}

/** Semantic-version order (missing parts are 0; a pre-release sorts before its release). Both must parse. */
export function compareSemver(a: string, b: string): number {
  const x = parseSemver(a)!
  const y = parseSemver(b)!
  for (let i = 0; i < Math.max(x.nums.length, y.nums.length); i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0)
    if (d) return d
  }
  if (!x.pre.length || !y.pre.length) return y.pre.length - x.pre.length
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i]
    const q = y.pre[i]
    if (p === undefined) return -1
    if (q === undefined) return 1
    const np = /^\d+$/.test(p)
    const nq = /^\d+$/.test(q)
    if (np && nq && Number(p) !== Number(q)) return Number(p) - Number(q)
    if (np !== nq) return np ? -1 : 1
    if (p !== q) return p < q ? -1 : 1
  }
  return 0
}

/**
 * Versions newest first: semantic-version order when every one parses, else first-seen order
 * (`firstSeen` in ms), ties by name.
 */
export function newestFirst<T extends { version: string; firstSeen: number }>(versions: T[]): T[] {
  const semantic = versions.every((v) => parseSemver(v.version))
  return [...versions].sort((a, b) => (semantic ? compareSemver(b.version, a.version) : b.firstSeen - a.firstSeen) || (a.version < b.version ? 1 : -1))
}
