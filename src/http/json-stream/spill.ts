import { open, rm, type FileHandle } from 'node:fs/promises'
import { randomToken } from '../../lib/ids'
import { Base64Payload, decodedRoom } from './base64-decoder'
import type { StringSink } from './json-parser'

/** A base64 string value decoded into a temp file while the body was read. */
export interface SpilledBase64 {
  path: string
  /** Decoded bytes, counted to the end even past `maxBytes` (the file then holds only a prefix). */
  size: number
  /** The media type of a data-URL value. */
  declaredType: string | null
  /** A character outside base64 was found; nothing after it was decoded. */
  invalid: boolean
  /** Writing the file failed (disk full…): the request should fail with it. */
  failure: unknown
}

// The parsed body carries a placeholder string where a spilled value was, so that the route's
// schema checks the body unchanged; the placeholder leads here. It holds 128 random bits: a client
// cannot name another request's file.
const PLACEHOLDER = 'spilled-base64:'
const live = new Map<string, SpilledBase64>()

/** The spilled file a body value stands for, or undefined for any other string. */
export function spilledBase64(value: string): SpilledBase64 | undefined {
  return value.startsWith(PLACEHOLDER) ? live.get(value) : undefined
}

/** Decoded bytes gathered before one file write. */
const WRITE_BYTES = 256 * 1024
/** Below this much room the buffer is written out first. */
const MIN_ROOM = 4096

// Write buffers are reused: allocating a fresh one per write makes the process hold hundreds of
// megabytes of dead buffers between collections under concurrent uploads.
const freeBuffers: Uint8Array[] = []
const MAX_FREE_BUFFERS = 32
const takeBuffer = () => freeBuffers.pop() ?? new Uint8Array(WRITE_BYTES)
const giveBack = (buffer: Uint8Array) => {
  if (freeBuffers.length < MAX_FREE_BUFFERS) freeBuffers.push(buffer)
}

/** Decodes one base64 string value into a temp file, writing at most `maxBytes`. */
class SpillSink implements StringSink {
  private readonly payload = new Base64Payload()
  private out = takeBuffer()
  private used = 0
  private written = 0
  private file: Promise<FileHandle> | null = null
  private empty = true
  /** The file writes so far, in order; never rejects (a failure is recorded). */
  done: Promise<void> = Promise.resolve()
  readonly result: SpilledBase64

  constructor(
    path: string,
    private readonly maxBytes: number,
    private readonly placeholder: string,
  ) {
    this.result = { path, size: 0, declaredType: null, invalid: false, failure: null }
  }

  write(text: string): void {
    if (text.length > 0) this.empty = false
    for (let i = 0; i < text.length; ) {
      if (this.out.length - this.used < MIN_ROOM) this.flush()
      // As many characters as surely fit the room left once decoded.
      const take = Math.min(text.length - i, Math.floor((this.out.length - this.used - decodedRoom(0)) / 3) * 4)
      this.used = this.payload.decode(i === 0 && take === text.length ? text : text.slice(i, i + take), this.out, this.used)
      i += take
    }
  }

  end(): string {
    this.used = this.payload.finish(this.out, this.used)
    this.flush()
    giveBack(this.out)
    this.out = new Uint8Array(0)
    this.result.declaredType = this.payload.declaredType
    this.result.invalid = this.payload.invalid
    this.close()
    // An empty string stays one, as in a small body (an empty screenshot means none).
    return this.empty ? '' : this.placeholder
  }

  /** Closes the file after the pending writes (also for a value cut off by a failed request). */
  close(): void {
    const file = this.file
    this.file = null
    if (file) this.chain(async () => (await file).close())
  }

  /** Hands the decoded bytes to the file; past `maxBytes` or after an invalid character they are only counted. */
  private flush(): void {
    if (this.used === 0) return
    const bytes = this.out.subarray(0, Math.min(this.used, this.maxBytes - this.written))
    this.result.size += this.used
    this.used = 0
    if (bytes.length === 0 || this.payload.invalid || this.result.failure) return
    this.written += bytes.length
    const buffer = this.out
    this.out = takeBuffer()
    const file = (this.file ??= open(this.result.path, 'w'))
    this.chain(async () => {
      try {
        await (await file).write(bytes)
      } finally {
        giveBack(buffer)
      }
    })
  }

  private chain(step: () => Promise<void>): void {
    this.done = this.done.then(step).catch((err: unknown) => {
      this.result.failure ??= err
    })
  }
}

/** The files spilled while reading one request body; `dispose()` deletes what was not moved away. */
export class SpillSet {
  private readonly sinks: SpillSink[] = []
  private readonly placeholders: string[] = []

  constructor(
    private readonly tempPath: () => string,
    private readonly maxBytes: number,
  ) {}

  /** A sink for the next base64 value; its placeholder is valid until `dispose()`. */
  open(): StringSink {
    const placeholder = PLACEHOLDER + randomToken(16)
    const sink = new SpillSink(this.tempPath(), this.maxBytes, placeholder)
    live.set(placeholder, sink.result)
    this.sinks.push(sink)
    this.placeholders.push(placeholder)
    return sink
  }

  /** Waits for the pending file writes (the reader awaits this before taking the next chunk). */
  async drain(): Promise<void> {
    await Promise.all(this.sinks.map((s) => s.done))
  }

  /** Deletes the temp files (a file already stored was renamed away) and forgets the placeholders. */
  async dispose(): Promise<void> {
    for (const sink of this.sinks) sink.close()
    await this.drain()
    for (const p of this.placeholders) live.delete(p)
    await Promise.all(this.sinks.map((s) => rm(s.result.path, { force: true })))
  }
}
