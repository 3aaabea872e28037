import type { Clock } from '../../lib/clock'

/** Why an interaction's signature was refused; the route answers 401 for every one of them. */
export type SignatureFailure = 'missing' | 'malformed' | 'stale' | 'wrong'

export type SignatureCheck = { ok: true } | { ok: false; reason: SignatureFailure }

/** How far the signed timestamp may be from now, either way: an older request is a replay. */
export const MAX_SIGNATURE_AGE_MS = 5 * 60 * 1000

const HEX_KEY = /^[0-9a-f]{64}$/i
const HEX_SIGNATURE = /^[0-9a-f]{128}$/i
const TIMESTAMP = /^\d{1,12}$/

const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g)!, (b) => Number.parseInt(b, 16))

/** Imported keys by their hex; a studio's key is imported once, not per interaction. */
const keys = new Map<string, Promise<CryptoKey | null>>()
const MAX_CACHED_KEYS = 1000

function importKey(publicKeyHex: string): Promise<CryptoKey | null> {
  const hex = publicKeyHex.toLowerCase()
  let key = keys.get(hex)
  if (!key) {
    if (keys.size >= MAX_CACHED_KEYS) keys.clear()
    key = crypto.subtle.importKey('raw', fromHex(hex), { name: 'Ed25519' }, false, ['verify']).catch(() => null)
    keys.set(hex, key)
  }
  return key
}

/**
 * Checks Discord's `X-Signature-Ed25519` (hex) over `X-Signature-Timestamp` + the raw body with the
 * application's public key (hex), and that the timestamp (Unix seconds) is within five minutes of
 * the clock. A malformed configured key fails as `wrong`: to the caller it is a signature that does not verify.
 */
export async function verifyDiscordSignature(input: {
  publicKeyHex: string
  signature: string | null | undefined
  timestamp: string | null | undefined
  body: Uint8Array
  clock: Clock
}): Promise<SignatureCheck> {
  const { signature, timestamp } = input
  if (!signature || !timestamp) return { ok: false, reason: 'missing' }
  if (!HEX_SIGNATURE.test(signature) || !TIMESTAMP.test(timestamp)) return { ok: false, reason: 'malformed' }
  if (Math.abs(input.clock.now().getTime() - Number(timestamp) * 1000) > MAX_SIGNATURE_AGE_MS) return { ok: false, reason: 'stale' }
  if (!HEX_KEY.test(input.publicKeyHex)) return { ok: false, reason: 'wrong' }
  const key = await importKey(input.publicKeyHex)
  if (!key) return { ok: false, reason: 'wrong' }
  const stamp = new TextEncoder().encode(timestamp)
  const message = new Uint8Array(stamp.length + input.body.length)
  message.set(stamp)
  message.set(input.body, stamp.length)
  const valid = await crypto.subtle.verify('Ed25519', key, fromHex(signature), message)
  return valid ? { ok: true } : { ok: false, reason: 'wrong' }
}
