import { nestsDeeperThan } from '../../../http/json-stream/json-depth'
import { malformed, tooLarge } from './protocol-error'

const MB = 1024 * 1024

/** Largest event (and other JSON item or `/store/` body) read: CONTRACT.md § "Sentry SDKs", 1 MB per event item. */
export const MAX_JSON_ITEM_BYTES = 1 * MB

const utf8 = new TextDecoder()

/** Whether a parsed JSON value is a plain object (not null, not an array). */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * A JSON object from `bytes` (an event, a session, a `/store/` body): 413 past `max` bytes, 400 when
 * it is not JSON, nests deeper than the API allows, or is not an object. `what` names it in the error.
 */
export function parseJsonObject(bytes: Uint8Array, what: string, max = MAX_JSON_ITEM_BYTES): Record<string, unknown> {
  if (bytes.byteLength > max) throw tooLarge(`${what} too large (max ${Math.round(max / 1024)} KB)`)
  const text = utf8.decode(bytes)
  if (nestsDeeperThan(text)) throw malformed(`${what} nests too deeply`)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw malformed(`${what} is not valid JSON`)
  }
  if (!isObject(value)) throw malformed(`${what} is not a JSON object`)
  return value
}
