import { nestsDeeperThan } from '../../../http/json-stream/json-depth'
import { isObject, MAX_JSON_ITEM_BYTES, parseJsonObject } from './json-payload'
import { malformed, tooLarge } from './protocol-error'
import { eventIdOf, sdkOf, text, timestampOf } from './values'

export interface EnvelopeLimits {
  /** Most items read; an envelope with more is refused (413) without parsing the rest. */
  maxItems: number
  /** Most `feedback` and `user_report` items (each files a player report); an envelope with more is refused (413). */
  maxFeedbackItems: number
  /** Largest JSON item read (`event`, `feedback`, `user_report`, `session`, `sessions`). */
  maxJsonItemBytes: number
  /** Longest header line (the envelope's or an item's). */
  maxHeaderBytes: number
}

// SDKs send one event with a few attachments, or a batch of sessions: 1000 items is far past them.
// They send one feedback item per envelope; 3 leave room for a feedback and a user_report together.
export const ENVELOPE_LIMITS: EnvelopeLimits = { maxItems: 1000, maxFeedbackItems: 3, maxJsonItemBytes: MAX_JSON_ITEM_BYTES, maxHeaderBytes: 64 * 1024 }

/** Item types that file a player report each. */
export const FEEDBACK_ITEM_TYPES = new Set(['feedback', 'user_report'])

/** Item types whose payload is parsed here as a JSON object (the ones Glitchbox keeps). */
export const JSON_ITEM_TYPES = new Set(['event', 'feedback', 'user_report', 'session', 'sessions'])

export interface EnvelopeHeader {
  /** 32 lowercase hex digits, or null when absent or not an id. */
  eventId: string | null
  dsn: string | null
  sentAt: Date | null
  sdk: { name: string; version: string } | null
  /** The header as sent. */
  raw: Record<string, unknown>
}

export interface EnvelopeItem {
  /** As sent (`event`, `attachment`, `transaction`, …); unknown types are kept for the caller to drop. */
  type: string
  contentType: string | null
  filename: string | null
  attachmentType: string | null
  /** The item header as sent. */
  headers: Record<string, unknown>
  payload: Uint8Array
  /** The parsed payload for `JSON_ITEM_TYPES`, else undefined. */
  json?: Record<string, unknown>
}

export interface Envelope {
  header: EnvelopeHeader
  items: EnvelopeItem[]
}

const NEWLINE = 0x0a
const CR = 0x0d
const utf8 = new TextDecoder()

// JSON whitespace: what may stand between an item and the next header (a blank line, a stray CR).
const isBlank = (b: number) => b === 0x20 || b === 0x09 || b === NEWLINE || b === CR

/** One header line from `pos` as a JSON object and where the line ends (at its newline or the end). */
function headerAt(bytes: Uint8Array, pos: number, what: string, max: number): { value: Record<string, unknown>; end: number } {
  const window = bytes.subarray(pos, pos + max + 1)
  const newline = window.indexOf(NEWLINE)
  if (newline === -1 && window.length > max) throw malformed(`${what} header is longer than ${max} bytes`)
  const end = newline === -1 ? bytes.length : pos + newline
  const line = bytes.subarray(pos, end > pos && bytes[end - 1] === CR ? end - 1 : end)
  const json = utf8.decode(line)
  if (nestsDeeperThan(json)) throw malformed(`${what} header nests too deeply`)
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch {
    throw malformed(`${what} header is not valid JSON`)
  }
  if (!isObject(value)) throw malformed(`${what} header is not a JSON object`)
  return { value, end }
}

function skipBlank(bytes: Uint8Array, pos: number): number {
  while (pos < bytes.length && isBlank(bytes[pos]!)) pos++
  return pos
}

/** The declared payload length: undefined when absent (the payload runs to the next newline), else a non-negative integer. */
function declaredLength(headers: Record<string, unknown>, what: string): number | undefined {
  const length = headers.length
  if (length === undefined || length === null) return undefined
  if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) throw malformed(`${what}: length must be a non-negative integer`)
  return length
}

function envelopeHeader(raw: Record<string, unknown>): EnvelopeHeader {
  return { eventId: eventIdOf(raw.event_id), dsn: text(raw.dsn, 1000) ?? null, sentAt: timestampOf(raw.sent_at), sdk: sdkOf(raw.sdk), raw }
}

/**
 * The header of an envelope from the start of its decoded body (its first line, as
 * `SentryBody.firstLine` gives it): what the routes read for the `dsn` before reading the rest.
 * 400 for an empty or malformed header line, or one longer than `maxHeaderBytes`.
 */
export function parseEnvelopeHeader(start: Uint8Array, limits: EnvelopeLimits = ENVELOPE_LIMITS): EnvelopeHeader {
  const pos = skipBlank(start, 0)
  if (pos >= start.length) throw malformed('empty envelope')
  return envelopeHeader(headerAt(start, pos, 'envelope', limits.maxHeaderBytes).value)
}

/**
 * Parses a decoded envelope body (develop.sentry.dev/sdk/data-model/envelopes): a JSON header line,
 * then items, each a JSON header line and a payload of `length` bytes or, without `length`, up to
 * the next newline. The last newline is optional; blank lines between items and a CR before a
 * header's newline are read past. 400 for a malformed header, a length running past the body or a
 * JSON item that is not an object; 413 past `maxItems` items, `maxFeedbackItems` feedback items or a
 * JSON item past `maxJsonItemBytes`.
 */
export function parseEnvelope(bytes: Uint8Array, limits: EnvelopeLimits = ENVELOPE_LIMITS): Envelope {
  let pos = skipBlank(bytes, 0)
  if (pos >= bytes.length) throw malformed('empty envelope')
  const top = headerAt(bytes, pos, 'envelope', limits.maxHeaderBytes)
  const items: EnvelopeItem[] = []
  let feedbackItems = 0
  for (pos = skipBlank(bytes, top.end + 1); pos < bytes.length; pos = skipBlank(bytes, pos)) {
    if (items.length >= limits.maxItems) throw tooLarge(`envelope has more than ${limits.maxItems} items`)
    const what = `item ${items.length + 1}`
    const { value: headers, end } = headerAt(bytes, pos, what, limits.maxHeaderBytes)
    const type = headers.type
    if (typeof type !== 'string' || type === '') throw malformed(`${what} has no type`)
    if (FEEDBACK_ITEM_TYPES.has(type) && ++feedbackItems > limits.maxFeedbackItems) throw tooLarge(`envelope has more than ${limits.maxFeedbackItems} feedback items`)
    const start = Math.min(end + 1, bytes.length)
    const length = declaredLength(headers, `${what} (${type.slice(0, 40)})`)
    let stop: number
    if (length === undefined) {
      const newline = bytes.indexOf(NEWLINE, start)
      stop = newline === -1 ? bytes.length : newline
      pos = stop + 1
    } else {
      stop = start + length
      if (stop > bytes.length) throw malformed(`${what} (${type.slice(0, 40)}): length ${length} runs past the end of the envelope`)
      // The payload ends at a newline (a CR before it is tolerated) or at the end of the body.
      const after = bytes[stop] === CR && bytes[stop + 1] === NEWLINE ? stop + 1 : stop
      if (after < bytes.length && bytes[after] !== NEWLINE) throw malformed(`${what} (${type.slice(0, 40)}): no newline after its ${length}-byte payload`)
      pos = after + 1
    }
    const payload = bytes.subarray(start, stop)
    const item: EnvelopeItem = {
      type,
      contentType: text(headers.content_type, 200) ?? null,
      filename: text(headers.filename, 255) ?? null,
      attachmentType: text(headers.attachment_type, 100) ?? null,
      headers,
      payload,
    }
    if (JSON_ITEM_TYPES.has(type)) item.json = parseJsonObject(payload, `${what} (${type})`, limits.maxJsonItemBytes)
    items.push(item)
  }
  return { header: envelopeHeader(top.value), items }
}
