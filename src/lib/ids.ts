import { timingSafeEqual } from 'node:crypto'

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** A new UUID v4 string (report, comment, attachment and project ids). */
export const newId = (): string => crypto.randomUUID()

/** `length` random base62 characters from the CSPRNG (rejection sampling keeps it unbiased). */
export function randomBase62(length: number): string {
  let out = ''
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62]
    }
  }
  return out
}

/** A URL-safe random token with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url')
}

/** SHA-256 hex of a secret, for storing tokens and keys we never show again. */
export function sha256Hex(value: string): string {
  return new Bun.CryptoHasher('sha256').update(value).digest('hex')
}

/** HMAC-SHA256 hex. */
export function hmacSha256Hex(key: string, value: string | Uint8Array): string {
  return new Bun.CryptoHasher('sha256', key).update(value).digest('hex')
}

/** Constant-time comparison of two strings. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  if (x.length !== y.length) return false
  return timingSafeEqual(x, y)
}
