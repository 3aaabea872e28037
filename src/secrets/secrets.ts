import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** The file in the data directory holding the key when `GLITCHBOX_SECRET_KEY` is unset (CONTRACT.md). */
export const SECRETS_KEY_FILE = 'secrets.key'

/** The server's secret key: one per studio, shared by every node that serves it. */
export interface Secrets {
  /** The 32-byte key. */
  key(): Uint8Array<ArrayBuffer>
  /** Where the key comes from, for messages: `GLITCHBOX_SECRET_KEY` or `secrets.key`. */
  readonly source: string
}

/** The 32 bytes of a base64 key (padding optional), or null when it is not exactly that. */
export function decodeSecretKey(text: string): Uint8Array<ArrayBuffer> | null {
  const trimmed = text.trim()
  if (!/^[A-Za-z0-9+/]{43}=?$/.test(trimmed)) return null
  const raw = Buffer.from(trimmed, 'base64')
  return raw.length === 32 ? new Uint8Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength)) : null
}

/**
 * The key of `dataDir`, created with mode 0600 the first time (exclusive create, so two processes
 * starting together keep the first one's). Without it stored credentials cannot be read.
 */
function ensureKeyFile(dataDir: string): Uint8Array<ArrayBuffer> {
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
  const key = decodeSecretKey(readFileSync(path, 'utf8'))
  if (!key) throw new Error(`${path} does not hold a 32-byte key (base64); restore it from the backup it came with`)
  return key
}

/**
 * The configured key (`GLITCHBOX_SECRET_KEY`, already validated by the config), else `secrets.key` in
 * the data directory, made on first use: a single binary needs nothing set, nodes that share no data
 * directory share the variable.
 */
export function createSecrets(opts: { dataDir: string; secretKey?: string }): Secrets {
  if (opts.secretKey) {
    const key = decodeSecretKey(opts.secretKey)
    if (!key) throw new Error('GLITCHBOX_SECRET_KEY is not a 32-byte key (base64)')
    return { key: () => key, source: 'GLITCHBOX_SECRET_KEY' }
  }
  let key: Uint8Array<ArrayBuffer> | undefined
  return { key: () => (key ??= ensureKeyFile(opts.dataDir)), source: SECRETS_KEY_FILE }
}
