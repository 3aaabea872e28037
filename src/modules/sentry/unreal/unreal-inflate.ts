import { UnrealCrashError } from './unreal-errors'

/**
 * Inflates Unreal's upload body (CrashReportClient compresses its container with zlib, whatever its
 * request headers say) chunk by chunk, and stops as soon as the output would pass `maxBytes`: a zip
 * bomb costs at most the cap plus one chunk of work and memory. The answer is one buffer, so the
 * container's files can be views of it.
 */
export async function inflateCapped(body: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  if (body.length === 0) throw new UnrealCrashError('empty', 'the crash upload is empty')
  const input = new ReadableStream<BufferSource>({
    start(controller) {
      // The DOM typings want an ArrayBuffer-backed view; any view inflates the same.
      controller.enqueue(body as Uint8Array<ArrayBuffer>)
      controller.close()
    },
  })
  const reader = input.pipeThrough(new DecompressionStream('deflate')).getReader()
  // Chunks are kept apart and joined once at the end: a refused bomb never holds more than the cap.
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>
    try {
      chunk = await reader.read()
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error)
      throw new UnrealCrashError('bad_compression', `the crash upload is not a complete zlib stream (${why})`)
    }
    if (chunk.done) break
    size += chunk.value.length
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined)
      throw new UnrealCrashError('too_large', `the crash upload inflates past ${maxBytes} bytes`, size)
    }
    chunks.push(chunk.value)
  }
  const out = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.length
  }
  return out
}
