import { badRequest } from '../../http/errors'

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?(?:;[\w-]+=[^;,]*)*;base64,/i
const BASE64 = /^[A-Za-z0-9+/_\-\s]*={0,2}\s*$/

/**
 * Decodes a base64 upload sent inside JSON: bare base64 (standard or URL-safe alphabet) or a data URL
 * (`data:image/png;base64,…`, whose type becomes the declared type). 400 naming `field` when malformed.
 */
export function decodeBase64Upload(value: string, field: string): { bytes: Uint8Array; declaredType: string | null } {
  const m = DATA_URL.exec(value)
  const payload = m ? value.slice(m[0].length) : value
  if (!BASE64.test(payload)) throw badRequest(`${field}: not valid base64`)
  const bytes = Buffer.from(payload, 'base64')
  if (bytes.byteLength === 0) throw badRequest(`${field}: file is empty`)
  return { bytes, declaredType: m?.[1]?.toLowerCase() ?? null }
}
