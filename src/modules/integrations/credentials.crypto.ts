import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { badRequest } from '../../http/errors'

/** The file in the data directory holding the key of stored integration credentials (CONTRACT.md). */
export const SECRETS_KEY_FILE = 'secrets.key'
const VERSION = 'v1'

const keys = new Map<string, Promise<CryptoKey>>()

/**
 * The 32-byte key of `dataDir`, created with mode 0600 the first time (exclusive create, so two
 * processes starting together keep the first one's). Without it stored credentials cannot be read.
 */
export function ensureSecretsKey(dataDir: string): Uint8Array<ArrayBuffer> {
  const path = join(dataDir, SECRETS_KEY_FILE)
  if (!existsSync(path)) {
    try {
      writeFileSync(path, Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64'), { mode: 0o600, flag: 'wx' })
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
  }
  // A key restored from a backup or copied in by hand may carry a looser mode.
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600)
  const raw = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64')
  if (raw.length !== 32) throw new Error(`${path} does not hold a 32-byte key (base64); restore it from the backup it came with`)
  return new Uint8Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength))
}

function keyOf(dataDir: string): Promise<CryptoKey> {
  let key = keys.get(dataDir)
  if (!key) {
    key = crypto.subtle.importKey('raw', ensureSecretsKey(dataDir), 'AES-GCM', false, ['encrypt', 'decrypt'])
    keys.set(dataDir, key)
  }
  return key
}

/**
 * Encrypts a credential with AES-256-GCM, bound to `boundTo` (the connection id) as additional data,
 * so a ciphertext copied onto another connection does not decrypt. Stored as `v1:<iv>:<ciphertext>`.
 */
export async function encryptSecret(dataDir: string, plaintext: string, boundTo: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(boundTo) }, await keyOf(dataDir), new TextEncoder().encode(plaintext))
  return `${VERSION}:${Buffer.from(iv).toString('base64')}:${Buffer.from(data).toString('base64')}`
}

/** Decrypts what `encryptSecret` stored; throws when the key or the binding does not match. */
export async function decryptSecret(dataDir: string, stored: string, boundTo: string): Promise<string> {
  const [version, iv, data] = stored.split(':')
  if (version !== VERSION || !iv || !data) throw new Error('stored credential has an unknown format')
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: Buffer.from(iv, 'base64'), additionalData: new TextEncoder().encode(boundTo) },
    await keyOf(dataDir),
    Buffer.from(data, 'base64'),
  )
  return new TextDecoder().decode(plain)
}

/**
 * `decryptSecret` for a credential about to be used: when this server's secrets.key cannot read it (a
 * database restored without the key it was written with) the caller gets a 400 saying how to fix it,
 * not a 500. `what` names the credential, `fix` the request that replaces it.
 */
export async function readStoredSecret(dataDir: string, stored: string, boundTo: string, what: string, fix: string): Promise<string> {
  try {
    return await decryptSecret(dataDir, stored, boundTo)
  } catch {
    throw badRequest(`the stored ${what} cannot be read with this server's ${SECRETS_KEY_FILE}; ${fix}`)
  }
}

/** `…` and the last four characters: enough to tell two credentials apart, never enough to use one. */
export const secretHint = (secret: string) => `…${secret.slice(-4)}`
