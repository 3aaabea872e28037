// Discord signs every interaction with the application's Ed25519 key; a key pair made here stands in.
import { beforeAll, describe, expect, it } from 'vitest'
import { FakeClock } from '../../src/lib/clock'
import { verifyDiscordSignature } from '../../src/modules/discord/discord-signature'

const hex = (b: ArrayBuffer | Uint8Array) => Buffer.from(b instanceof Uint8Array ? b : new Uint8Array(b)).toString('hex')
const NOW = new Date('2026-03-01T12:00:00Z')
const STAMP = String(NOW.getTime() / 1000)
const BODY = new TextEncoder().encode('{"type":1,"id":"1","application_id":"2","token":"t"}')

let keys: CryptoKeyPair
let other: CryptoKeyPair
let publicKeyHex = ''

/** The signature Discord would send for this timestamp and body. */
async function sign(timestamp: string, body: Uint8Array, pair = keys) {
  const message = Buffer.concat([Buffer.from(timestamp), body])
  return hex(await crypto.subtle.sign('Ed25519', pair.privateKey, message))
}

beforeAll(async () => {
  keys = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair
  other = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair
  publicKeyHex = hex(await crypto.subtle.exportKey('raw', keys.publicKey))
})

const check = (o: { signature?: string | null; timestamp?: string | null; body?: Uint8Array; now?: Date; key?: string }) =>
  verifyDiscordSignature({ publicKeyHex: o.key ?? publicKeyHex, signature: o.signature, timestamp: o.timestamp, body: o.body ?? BODY, clock: new FakeClock(o.now ?? NOW) })

describe('verifyDiscordSignature', () => {
  it('accepts the signature over timestamp + raw body, with the key in either case', async () => {
    const signature = await sign(STAMP, BODY)
    expect(await check({ signature, timestamp: STAMP })).toEqual({ ok: true })
    expect(await check({ signature: signature.toUpperCase(), timestamp: STAMP, key: publicKeyHex.toUpperCase() })).toEqual({ ok: true })
  })

  it('accepts a timestamp up to five minutes old', async () => {
    const signature = await sign(STAMP, BODY)
    expect(await check({ signature, timestamp: STAMP, now: new Date(NOW.getTime() + 299_000) })).toEqual({ ok: true })
  })

  it.each([
    ['no signature header', async () => ({ signature: null, timestamp: STAMP }), 'missing'],
    ['no timestamp header', async () => ({ signature: await sign(STAMP, BODY), timestamp: '' }), 'missing'],
    ['a signature that is not 64 bytes of hex', async () => ({ signature: 'zz'.repeat(64), timestamp: STAMP }), 'malformed'],
    ['a timestamp that is not Unix seconds', async () => ({ signature: await sign('yesterday', BODY), timestamp: 'yesterday' }), 'malformed'],
    ['a signature by another key', async () => ({ signature: await sign(STAMP, BODY, other), timestamp: STAMP }), 'wrong'],
    ['a tampered body', async () => ({ signature: await sign(STAMP, BODY), timestamp: STAMP, body: new TextEncoder().encode('{"type":2}') }), 'wrong'],
    ['a timestamp other than the signed one', async () => ({ signature: await sign(STAMP, BODY), timestamp: String(Number(STAMP) - 1) }), 'wrong'],
    ['a replay six minutes later', async () => ({ signature: await sign(STAMP, BODY), timestamp: STAMP, now: new Date(NOW.getTime() + 360_000) }), 'stale'],
    ['a timestamp six minutes in the future', async () => {
      const ahead = String(Number(STAMP) + 360)
      return { signature: await sign(ahead, BODY), timestamp: ahead }
    }, 'stale'],
    ['a configured key that is not a key', async () => ({ signature: await sign(STAMP, BODY), timestamp: STAMP, key: 'not-hex' }), 'wrong'],
  ])('refuses %s', async (_what, input, reason) => {
    expect(await check(await input())).toEqual({ ok: false, reason })
  })
})
