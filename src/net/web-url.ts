import * as z from 'zod'

/**
 * Whether `value` is an absolute http(s) URL: the only kind of link Glitchbox stores from a user or a
 * provider, because the dashboard and the public pages render stored URLs as links, and a
 * `javascript:` or `data:` link runs in the page of whoever clicks it.
 */
export function isWebUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value) || !URL.canParse(value)) return false
  const { protocol, hostname } = new URL(value)
  return (protocol === 'http:' || protocol === 'https:') && hostname !== ''
}

/** A stored URL in a request body: trimmed, at most `max` characters, http(s) only; with `empty`, '' (which clears it) too. */
export function webUrl(max: number, o: { empty?: boolean } = {}) {
  return z
    .string()
    .trim()
    .max(max)
    .refine((v) => (o.empty && v === '') || isWebUrl(v), o.empty ? 'must be an http(s) URL or empty' : 'must be an http(s) URL')
}

/** A link a provider answered, as it is stored and shown: itself when it is http(s), else '' (no link). */
export const providerLink = (value: unknown): string => (typeof value === 'string' && isWebUrl(value) ? value : '')

/** `url` without its credentials, query and fragment, the parts that carry tokens: what a member who may not manage it is shown. */
export function withoutSecrets(url: string): string {
  if (!URL.canParse(url)) return ''
  const u = new URL(url)
  u.username = ''
  u.password = ''
  u.search = ''
  u.hash = ''
  return u.href
}
