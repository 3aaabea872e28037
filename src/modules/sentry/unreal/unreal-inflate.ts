import { decodeBody, isZlibHeader } from '../protocol/decode-body'
import { SentryProtocolError } from '../protocol/protocol-error'
import { UnrealCrashError } from './unreal-errors'

/**
 * Inflates Unreal's upload body (CrashReportClient compresses its container with zlib, whatever its
 * request headers say) with the Sentry routes' one body decoder, which stops as soon as the output
 * would pass `maxBytes`: a zip bomb costs at most the cap. Its failures become UnrealCrashErrors.
 */
export async function inflateCapped(body: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  if (body.length === 0) throw new UnrealCrashError('empty', 'the crash upload is empty')
  // Unreal always writes the zlib wrapper: anything else is not its upload.
  if (!isZlibHeader(body)) throw new UnrealCrashError('bad_compression', 'the crash upload is not a complete zlib stream (no zlib header)')
  try {
    return await decodeBody(new Blob([body as Uint8Array<ArrayBuffer>]).stream(), 'deflate', { maxWireBytes: Number.MAX_SAFE_INTEGER, maxDecodedBytes: maxBytes })
  } catch (err) {
    if (!(err instanceof SentryProtocolError)) throw err
    if (err.status === 413) throw new UnrealCrashError('too_large', `the crash upload inflates past ${maxBytes} bytes`)
    throw new UnrealCrashError('bad_compression', 'the crash upload is not a complete zlib stream (corrupt or cut short)')
  }
}
