import { badRequest } from '../../http/errors'
import type { Secrets } from '../../secrets/secrets'

const VERSION = 'v1'

const keys = new WeakMap<Secrets, Promise<CryptoKey>>()

function keyOf(secrets: Secrets): Promise<CryptoKey> {
  let key = keys.get(secrets)
  if (!key) {
    key = crypto.subtle.importKey('raw', secrets.key(), 'AES-GCM', false, ['encrypt', 'decrypt'])
    keys.set(secrets, key)
  }
  return key
}

/**
 * Encrypts a credential with AES-256-GCM under the server's key, bound to `boundTo` (the connection
 * id) as additional data, so a ciphertext copied onto another connection does not decrypt. Stored as
 * `v1:<iv>:<ciphertext>`.
 */
export async function encryptSecret(secrets: Secrets, plaintext: string, boundTo: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(boundTo) }, await keyOf(secrets), new TextEncoder().encode(plaintext))
  return `${VERSION}:${Buffer.from(iv).toString('base64')}:${Buffer.from(data).toString('base64')}`
}

/** Decrypts what `encryptSecret` stored; throws when the key or the binding does not match. */
export async function decryptSecret(secrets: Secrets, stored: string, boundTo: string): Promise<string> {
  const [version, iv, data] = stored.split(':')
  if (version !== VERSION || !iv || !data) throw new Error('stored credential has an unknown format')
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: Buffer.from(iv, 'base64'), additionalData: new TextEncoder().encode(boundTo) },
    await keyOf(secrets),
    Buffer.from(data, 'base64'),
  )
  return new TextDecoder().decode(plain)
}

/**
 * `decryptSecret` for a credential about to be used: when this server's key cannot read it (a
 * database restored without the key it was written with) the caller gets a 400 saying how to fix it,
 * not a 500. `what` names the credential, `fix` the request that replaces it.
 */
export async function readStoredSecret(secrets: Secrets, stored: string, boundTo: string, what: string, fix: string): Promise<string> {
  try {
    return await decryptSecret(secrets, stored, boundTo)
  } catch {
    throw badRequest(`the stored ${what} cannot be read with this server's ${secrets.source}; ${fix}`)
  }
}

/** `…` and the last four characters: enough to tell two credentials apart, never enough to use one. */
export const secretHint = (secret: string) => `…${secret.slice(-4)}`
