import { UnrealCrashError } from './unreal-errors'

/**
 * Inflates Unreal's upload body (CrashReportClient compresses its container with zlib, whatever its
 * request headers say) into one buffer, chunk by chunk, and stops as soon as the output would pass
 * `maxBytes`: a zip bomb costs at most the cap plus one chunk of work and memory. The answer is a view
 * of that buffer, so the container's files can be views of it too.
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
  // Crash containers deflate a lot (the fixtures 10x and 5x): start near that, double as needed.
  let out = new Uint8Array(Math.min(maxBytes, Math.max(64 * 1024, body.length * 8)))
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
    const next = size + chunk.value.length
    if (next > maxBytes) {
      await reader.cancel().catch(() => undefined)
      throw new UnrealCrashError('too_large', `the crash upload inflates past ${maxBytes} bytes`, next)
    }
    if (next > out.length) {
      const grown = new Uint8Array(Math.min(maxBytes, Math.max(out.length * 2, next)))
      grown.set(out.subarray(0, size))
      out = grown
    }
    out.set(chunk.value, size)
    size = next
  }
  return out.subarray(0, size)
}
