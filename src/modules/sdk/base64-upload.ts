import { badRequest } from '../../http/errors'
import { Base64Payload, decodedRoom } from '../../http/json-stream/base64-decoder'
import { spilledBase64 } from '../../http/json-stream/spill'

function check(field: string, invalid: boolean, size: number): void {
  if (invalid) throw badRequest(`${field}: not valid base64`)
  if (size === 0) throw badRequest(`${field}: file is empty`)
}

/**
 * Decodes a base64 upload sent inside JSON: bare base64 (standard or URL-safe alphabet, whitespace
 * allowed) or a data URL (`data:image/png;base64,…`, whose type becomes the declared type). 400 naming
 * `field` when malformed or empty.
 */
export function decodeBase64Upload(value: string, field: string): { bytes: Uint8Array; declaredType: string | null } {
  const payload = new Base64Payload()
  const out = Buffer.allocUnsafe(decodedRoom(value.length))
  const size = payload.finish(out, payload.decode(value, out, 0))
  check(field, payload.invalid, size)
  return { bytes: out.subarray(0, size), declaredType: payload.declaredType }
}

/**
 * The content of a base64 upload value: decoded here when it came inline, or the temp file it was
 * decoded into while a big body streamed in (`streamedJsonBody`), which storing moves into place.
 * 400 naming `field` when malformed, empty or larger than `maxBytes`.
 */
export function base64Upload(value: string, field: string, maxBytes: number): { data: Blob | Uint8Array; declaredType: string | null } {
  const spilled = spilledBase64(value)
  let upload: { data: Blob | Uint8Array; size: number; declaredType: string | null }
  if (spilled) {
    if (spilled.failure) throw spilled.failure
    check(field, spilled.invalid, spilled.size)
    upload = { data: Bun.file(spilled.path), size: spilled.size, declaredType: spilled.declaredType }
  } else {
    const { bytes, declaredType } = decodeBase64Upload(value, field)
    upload = { data: bytes, size: bytes.byteLength, declaredType }
  }
  if (upload.size > maxBytes) throw badRequest(`${field}: file is too large (max ${Math.round(maxBytes / 1024 / 1024)} MB)`)
  return { data: upload.data, declaredType: upload.declaredType }
}
