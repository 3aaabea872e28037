/**
 * Readers for values of a parsed Sentry payload, which may hold anything: each returns the value in
 * the expected shape or undefined/null, never throws, and cuts strings to a length.
 */
import { isObject } from './json-payload'

export { isObject }

/** A string cut to `max` characters; undefined for anything else and for an empty string. */
export function text(v: unknown, max: number): string | undefined {
  if (typeof v !== 'string' || v === '') return undefined
  return v.length > max ? v.slice(0, max) : v
}

/** A string, or a finite number or boolean written as text (ids and tags arrive as either). */
export function scalarText(v: unknown, max: number): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  if (typeof v === 'boolean') return String(v)
  return text(v, max)
}

/** A finite number, or undefined. */
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

/** A non-negative integer up to `max` (larger ones are cut to it), or undefined. */
export function count(v: unknown, max: number): number | undefined {
  const n = num(v)
  return n === undefined || n < 0 ? undefined : Math.min(Math.floor(n), max)
}

/** The object, or undefined. */
export const obj = (v: unknown): Record<string, unknown> | undefined => (isObject(v) ? v : undefined)

/** Sentry writes lists either bare or as `{ values: [...] }` (exceptions, threads, breadcrumbs). */
export function listOf(v: unknown): unknown[] {
  if (Array.isArray(v)) return v
  const values = isObject(v) ? v.values : undefined
  return Array.isArray(values) ? values : []
}

/** An event id (32 hex digits, dashes allowed) as 32 lowercase hex digits, or null. */
export function eventIdOf(v: unknown): string | null {
  if (typeof v !== 'string' || v.length > 36) return null
  const hex = v.replace(/-/g, '').toLowerCase()
  return /^[0-9a-f]{32}$/.test(hex) ? hex : null
}

// Sentry's RFC 3339 timestamps may leave out the zone; they mean UTC.
const NAIVE_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/

/** A timestamp sent as seconds since the epoch (fractional) or as an ISO 8601 text, or null. */
export function timestampOf(v: unknown): Date | null {
  let ms: number
  if (typeof v === 'number' && Number.isFinite(v)) ms = v * 1000
  else if (typeof v === 'string' && v.length <= 64) ms = Date.parse(NAIVE_ISO.test(v) ? `${v}Z` : v)
  else return null
  // Outside ±100,000,000 days a Date is invalid; years before 1970 mean a broken clock anyway.
  return Number.isFinite(ms) && ms >= 0 && ms <= 8.64e15 ? new Date(ms) : null
}

/** `sdk` of an event or envelope header: its name and version, or null without a name. */
export function sdkOf(v: unknown): { name: string; version: string } | null {
  const sdk = obj(v)
  const name = text(sdk?.name, 100)
  return name ? { name, version: text(sdk?.version, 100) ?? '' } : null
}

/**
 * The game version in a Sentry `release`: SDKs name releases `package@version` (sentry-godot sends
 * `{app_name}@{app_version}`, the Unity SDK `productName@version`), while Glitchbox's own SDK sends
 * the bare version. Keeping only what follows the `@` makes both one version for grouping,
 * regressions and release health. A release without a package is kept whole.
 */
export function releaseVersion(release: unknown): string | null {
  const r = text(release, 200)?.trim()
  if (!r) return null
  const at = r.lastIndexOf('@')
  const version = at > 0 && at < r.length - 1 ? r.slice(at + 1) : r
  return version.slice(0, 100)
}
