import { isObject } from './values'

const bytesOf = (v: unknown) => Buffer.byteLength(JSON.stringify(v) ?? '')

interface Part {
  path: [string] | [string, string]
  size: number
}

/** The removable parts of `value`: each key of a nested object, and each top-level value that is not one. */
function partsOf(value: Record<string, unknown>): Part[] {
  const parts: Part[] = []
  for (const [key, v] of Object.entries(value)) {
    const children = isObject(v) ? Object.entries(v) : []
    if (children.length) for (const [child, c] of children) parts.push({ path: [key, child], size: bytesOf(c) + Buffer.byteLength(child) + 4 })
    else parts.push({ path: [key], size: bytesOf(v) + Buffer.byteLength(key) + 4 })
  }
  // Biggest first; ties in path order, so the same input always loses the same parts.
  return parts.sort((a, b) => b.size - a.size || a.path.join('\0').localeCompare(b.path.join('\0')))
}

/**
 * `value` cut to at most `max` bytes of JSON by dropping its biggest parts first (keys of the nested
 * objects such as `contexts.device`, or whole top-level values), deterministically; null when even
 * the empty remains do not fit.
 */
export function trimToJsonBytes(value: Record<string, unknown>, max: number): Record<string, unknown> | null {
  let current = value
  for (let round = 0; round < 3 && bytesOf(current) > max; round++) {
    const copy: Record<string, unknown> = Object.fromEntries(Object.entries(current).map(([k, v]) => [k, isObject(v) ? { ...v } : v]))
    let excess = bytesOf(copy) - max
    for (const { path, size } of partsOf(copy)) {
      if (excess <= 0) break
      if (path.length === 1) delete copy[path[0]]
      else delete (copy[path[0]] as Record<string, unknown>)[path[1]]
      excess -= size
    }
    current = copy
  }
  return bytesOf(current) <= max ? current : null
}
