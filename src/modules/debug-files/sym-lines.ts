/** Longest line kept: C++ template names run to a few KB; a longer line is skipped, never buffered whole. */
export const MAX_LINE_BYTES = 64 * 1024

const utf8 = new TextDecoder('utf-8')

/**
 * Splits bytes that arrive in chunks into lines (LF or CRLF, UTF-8), calling `onLine` for each, so a
 * `.sym` of any size is read with one chunk and one partial line in memory. `onLine` gets null for
 * a line skipped for its length.
 */
export class LineSplitter {
  private carry: Uint8Array[] = []
  private carried = 0
  private overlong = false

  constructor(private readonly onLine: (line: string | null) => void) {}

  /** Feeds the next chunk of the file. */
  push(chunk: Uint8Array): void {
    let start = 0
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.keep(chunk.subarray(start, nl))
      this.emit()
      start = nl + 1
    }
    this.keep(chunk.subarray(start))
  }

  /** Ends the input: a last line without a newline still counts (a truncated file keeps what it had). */
  end(): void {
    if (this.carried > 0 || this.overlong) this.emit()
  }

  private keep(part: Uint8Array): void {
    if (part.length === 0 || this.overlong) return
    if (this.carried + part.length > MAX_LINE_BYTES) {
      this.overlong = true
      this.carry = []
      this.carried = 0
      return
    }
    this.carry.push(part)
    this.carried += part.length
  }

  private emit(): void {
    if (this.overlong) {
      this.overlong = false
      this.onLine(null)
      return
    }
    const bytes = this.carry.length === 1 ? this.carry[0]! : concat(this.carry, this.carried)
    this.carry = []
    this.carried = 0
    const line = utf8.decode(bytes)
    this.onLine(line.endsWith('\r') ? line.slice(0, -1) : line)
  }
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length)
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** What a `.sym` can be read from: its bytes, its text, or a stream of chunks (a file or an upload). */
export type SymSource = Uint8Array | string | AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>

/** Feeds a source's lines to `onLine`, chunk by chunk. */
export async function forEachLine(source: SymSource, onLine: (line: string | null) => void): Promise<void> {
  if (typeof source === 'string' || source instanceof Uint8Array) return forEachLineSync(source, onLine)
  const splitter = new LineSplitter(onLine)
  for await (const chunk of source as AsyncIterable<Uint8Array>) splitter.push(chunk)
  splitter.end()
}

/** The same for a source already in memory, synchronously. */
export function forEachLineSync(source: Uint8Array | string, onLine: (line: string | null) => void): void {
  const splitter = new LineSplitter(onLine)
  splitter.push(typeof source === 'string' ? new TextEncoder().encode(source) : source)
  splitter.end()
}
