import { AppError } from '../errors'

/** Deepest nesting of arrays and objects a request body may have; no API shape comes near it. */
export const MAX_JSON_DEPTH = 64

/** The 400 for a body nested past `MAX_JSON_DEPTH` (it never quotes the body). */
export const tooDeep = () => new AppError(400, `request body nests deeper than ${MAX_JSON_DEPTH} levels`)

const OPEN_ARRAY = 0x5b
const OPEN_OBJECT = 0x7b
const CLOSE_ARRAY = 0x5d
const CLOSE_OBJECT = 0x7d
const QUOTE = 0x22
const BACKSLASH = 0x5c

/**
 * Whether JSON text nests arrays and objects deeper than `max`, found in one pass that skips strings.
 * Most bodies hold fewer opening brackets than `max` and are answered by two native searches.
 */
export function nestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  let opens = 0
  for (let i = text.indexOf('['); i >= 0 && opens <= max; i = text.indexOf('[', i + 1)) opens++
  for (let i = text.indexOf('{'); i >= 0 && opens <= max; i = text.indexOf('{', i + 1)) opens++
  if (opens <= max) return false
  let depth = 0
  const n = text.length
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      // Skip to the closing quote: one not preceded by an odd run of backslashes.
      for (;;) {
        const end = text.indexOf('"', i + 1)
        if (end < 0) return false
        let slashes = 0
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++
        i = end
        if (slashes % 2 === 0) break
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--
  }
  return false
}

/** JSON.parse that refuses nesting past `MAX_JSON_DEPTH` with 400 before building anything. */
export function parseJsonCapped(text: string): unknown {
  if (nestsDeeperThan(text)) throw tooDeep()
  return JSON.parse(text)
}
