// An incremental JSON parser over byte chunks of any size, for request bodies too big to buffer.
// It builds the same value as JSON.parse, except that string values at chosen paths are handed to a
// sink piece by piece (e.g. base64 written to a file) and replaced by whatever the sink returns.

import { MAX_JSON_DEPTH, tooDeep } from './json-depth'

/** Matches any array index in a `PathPattern`. */
export const ANY_INDEX = '*'
/** Keys from the root to a value: `['attachments', '*', 'data']`. */
export type PathPattern = readonly string[]

/**
 * Receives one string value in pieces, escapes resolved. Raw bytes come one character per byte
 * (Latin-1), exact for ASCII content such as base64; any byte above 0x7f shows as a non-ASCII character.
 */
export interface StringSink {
  write(text: string): void
  /** The string has ended; the result takes its place in the parsed value. */
  end(): unknown
}

/** The body is not valid JSON. */
export class JsonSyntaxError extends SyntaxError {}

// What the next byte may be.
const VALUE = 0 // any value
const VALUE_OR_CLOSE = 1 // after '['
const KEY_OR_CLOSE = 2 // after '{'
const KEY = 3 // after ',' in an object
const COLON = 4
const AFTER_VALUE = 5 // ',' or the container's end
const STRING = 6
const ESCAPE = 7 // after '\'
const UNICODE = 8 // in the four hex digits of \uXXXX
const NUMBER = 9
const LITERAL = 10 // true, false, null
const DONE = 11

const QUOTE = 0x22
const BACKSLASH = 0x5c
const ESCAPED: Record<number, number> = { 0x22: 0x22, 0x5c: 0x5c, 0x2f: 0x2f, 0x62: 0x08, 0x66: 0x0c, 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09 }
const LITERALS: Record<number, [string, unknown]> = { 0x74: ['true', true], 0x66: ['false', false], 0x6e: ['null', null] }
const NUMBER_RE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/
const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09
const isNumberByte = (b: number) => (b >= 0x30 && b <= 0x39) || b === 0x2d || b === 0x2b || b === 0x2e || b === 0x65 || b === 0x45

interface Frame {
  /** The array being filled, or null for an object. */
  array: unknown[] | null
  object: Record<string, unknown> | null
  /** The key whose value comes next (objects). */
  key: string
}

const utf8 = new TextDecoder()
const latin1 = new TextDecoder('latin1')
const CONTROL = /[\x00-\x1f]/
/** Raw characters handed to a sink at a time: small pieces keep the garbage strings small. */
const SINK_PIECE = 64 * 1024
/** How often (in bytes written) the cap on JSON outside the sinks is checked. */
const CHECK_EVERY = 64 * 1024

/** Parses JSON fed in chunks; `end()` returns the value. Throws `JsonSyntaxError` where JSON.parse would throw. */
export class JsonStreamParser {
  private state = VALUE
  private readonly frames: Frame[] = []
  private root: unknown
  // The string, number or literal being read.
  private isKey = false
  private sink: StringSink | null = null
  private parts: string[] = []
  private bytes = new Uint8Array(256)
  private byteCount = 0
  private hex = 0
  private hexDigits = 0
  private literal: [string, unknown] = ['', null]
  private literalPos = 0

  constructor(
    private readonly opts: {
      /** String values at these paths go to `open(path)` instead of being built. */
      sinkPaths?: readonly PathPattern[]
      open?: (path: (string | number)[]) => StringSink
      /** Deepest nesting accepted (`MAX_JSON_DEPTH` by default); deeper is a 400 as soon as it opens. */
      maxDepth?: number
      /**
       * Most bytes of JSON outside the sink strings (the files): past it `tooLarge()` is thrown within
       * CHECK_EVERY bytes, so a body of megabytes of numbers or unknown keys costs no more than this.
       */
      maxOutsideSinks?: { bytes: number; tooLarge: () => Error }
    } = {},
  ) {}

  // Bytes written, and those of them that went to sinks.
  private read = 0
  private sunk = 0

  /** Parses the next bytes of the document. */
  write(chunk: Uint8Array): void {
    const cap = this.opts.maxOutsideSinks
    if (!cap) return this.writePiece(chunk)
    for (let at = 0; at < chunk.length; at += CHECK_EVERY) {
      const piece = chunk.subarray(at, Math.min(chunk.length, at + CHECK_EVERY))
      this.writePiece(piece)
      this.read += piece.length
      if (this.read - this.sunk > cap.bytes) throw cap.tooLarge()
    }
  }

  private writePiece(chunk: Uint8Array): void {
    let i = 0
    const n = chunk.length
    while (i < n) {
      switch (this.state) {
        case STRING:
          i = this.stringRun(chunk, i)
          break
        case ESCAPE:
          this.escape(chunk[i++]!)
          break
        case UNICODE:
          this.unicodeDigit(chunk[i++]!)
          break
        case NUMBER:
          if (isNumberByte(chunk[i]!)) this.pushByte(chunk[i++]!)
          else this.endNumber()
          break
        case LITERAL:
          if (chunk[i++] !== this.literal[0].charCodeAt(this.literalPos++)) this.fail()
          if (this.literalPos === this.literal[0].length) this.emit(this.literal[1])
          break
        default: {
          const b = chunk[i++]!
          if (!isSpace(b)) this.structural(b)
        }
      }
    }
  }

  /** Ends the document and returns its value. */
  end(): unknown {
    if (this.state === NUMBER) this.endNumber()
    if (this.state !== DONE) this.fail()
    return this.root
  }

  private fail(): never {
    throw new JsonSyntaxError('malformed JSON')
  }

  private structural(b: number): void {
    switch (this.state) {
      case VALUE:
      case VALUE_OR_CLOSE:
        if (b === 0x5d && this.state === VALUE_OR_CLOSE) return this.close()
        return this.startValue(b)
      case KEY_OR_CLOSE:
      case KEY:
        if (b === 0x7d && this.state === KEY_OR_CLOSE) return this.close()
        if (b !== QUOTE) this.fail()
        return this.startString(true)
      case COLON:
        if (b !== 0x3a) this.fail()
        this.state = VALUE
        return
      case AFTER_VALUE: {
        const top = this.frames[this.frames.length - 1]!
        if (b === 0x2c) this.state = top.array ? VALUE : KEY
        else if (b === (top.array ? 0x5d : 0x7d)) this.close()
        else this.fail()
        return
      }
      default:
        this.fail()
    }
  }

  private startValue(b: number): void {
    if (b === QUOTE) return this.startString(false)
    if (b === 0x7b || b === 0x5b) {
      if (this.frames.length >= (this.opts.maxDepth ?? MAX_JSON_DEPTH)) throw tooDeep()
      const array = b === 0x5b ? [] : null
      this.frames.push({ array, object: array ? null : {}, key: '' })
      this.state = array ? VALUE_OR_CLOSE : KEY_OR_CLOSE
      return
    }
    if (b === 0x2d || (b >= 0x30 && b <= 0x39)) {
      this.byteCount = 0
      this.pushByte(b)
      this.state = NUMBER
      return
    }
    const literal = LITERALS[b]
    if (!literal) this.fail()
    this.literal = literal
    this.literalPos = 1
    this.state = LITERAL
  }

  private close(): void {
    const frame = this.frames.pop()!
    this.emit(frame.array ?? frame.object)
  }

  /** Places a finished value in its container (or as the root). */
  private emit(value: unknown): void {
    const top = this.frames[this.frames.length - 1]
    if (!top) {
      this.root = value
      this.state = DONE
      return
    }
    if (top.array) top.array.push(value)
    // As JSON.parse does, "__proto__" becomes an own property, never the prototype.
    else if (top.key === '__proto__') Object.defineProperty(top.object, top.key, { value, writable: true, enumerable: true, configurable: true })
    else top.object![top.key] = value
    this.state = AFTER_VALUE
  }

  private startString(isKey: boolean): void {
    this.isKey = isKey
    this.sink = isKey ? null : this.sinkHere()
    this.parts = []
    this.byteCount = 0
    this.state = STRING
  }

  private sinkHere(): StringSink | null {
    const { sinkPaths, open } = this.opts
    if (!sinkPaths || !open) return null
    const frames = this.frames
    for (const pattern of sinkPaths) {
      if (pattern.length !== frames.length) continue
      let k = 0
      for (; k < pattern.length; k++) {
        const f = frames[k]!
        if (pattern[k] === ANY_INDEX ? !f.array : f.array || f.key !== pattern[k]) break
      }
      if (k === pattern.length) return open(frames.map((f) => (f.array ? f.array.length : f.key)))
    }
    return null
  }

  /** Reads string characters up to the closing quote or an escape; returns where it stopped. */
  private stringRun(chunk: Uint8Array, from: number): number {
    if (this.sink) return this.sinkRun(this.sink, chunk, from)
    let i = from
    const n = chunk.length
    let b = 0
    for (; i < n; i++) {
      b = chunk[i]!
      if (b === QUOTE || b === BACKSLASH || b < 0x20) break
    }
    if (i > from) this.pushBytes(chunk, from, i)
    if (i === n) return i
    if (b < 0x20) this.fail()
    if (b === BACKSLASH) this.state = ESCAPE
    else this.endString()
    return i + 1
  }

  // The same for a sink's string, with native searches: these strings are megabytes long.
  private sinkRun(sink: StringSink, chunk: Uint8Array, from: number): number {
    const quote = chunk.indexOf(QUOTE, from)
    const backslash = chunk.indexOf(BACKSLASH, from)
    const end = quote < 0 ? (backslash < 0 ? chunk.length : backslash) : backslash < 0 ? quote : Math.min(quote, backslash)
    this.sunk += end - from
    for (let i = from; i < end; i += SINK_PIECE) {
      const text = latin1.decode(chunk.subarray(i, Math.min(end, i + SINK_PIECE)))
      if (CONTROL.test(text)) this.fail()
      sink.write(text)
    }
    if (end === chunk.length) return end
    if (chunk[end] === BACKSLASH) this.state = ESCAPE
    else this.endString()
    return end + 1
  }

  private escape(b: number): void {
    if (b === 0x75) {
      this.hex = 0
      this.hexDigits = 0
      this.state = UNICODE
      return
    }
    const c = ESCAPED[b]
    if (c === undefined) this.fail()
    this.escapedChar(c)
  }

  private unicodeDigit(b: number): void {
    const d = b >= 0x30 && b <= 0x39 ? b - 0x30 : (b | 0x20) >= 0x61 && (b | 0x20) <= 0x66 ? (b | 0x20) - 0x57 : -1
    if (d < 0) this.fail()
    this.hex = (this.hex << 4) | d
    if (++this.hexDigits === 4) this.escapedChar(this.hex)
  }

  /** One UTF-16 code unit from an escape (a surrogate pair comes as two, joined by the string). */
  private escapedChar(code: number): void {
    this.state = STRING
    if (this.sink) {
      this.sink.write(String.fromCharCode(code))
      return
    }
    this.flushBytes()
    this.parts.push(String.fromCharCode(code))
  }

  private endString(): void {
    this.state = AFTER_VALUE
    if (this.sink) {
      const sink = this.sink
      this.sink = null
      return this.emit(sink.end())
    }
    this.flushBytes()
    const text = this.parts.length === 1 ? this.parts[0]! : this.parts.join('')
    this.parts = []
    if (!this.isKey) return this.emit(text)
    this.frames[this.frames.length - 1]!.key = text
    this.state = COLON
  }

  private endNumber(): void {
    const text = utf8.decode(this.bytes.subarray(0, this.byteCount))
    if (!NUMBER_RE.test(text)) this.fail()
    this.emit(Number(text))
  }

  private pushByte(b: number): void {
    if (this.byteCount === this.bytes.length) this.grow(1)
    this.bytes[this.byteCount++] = b
  }

  private pushBytes(chunk: Uint8Array, from: number, to: number): void {
    if (this.byteCount + (to - from) > this.bytes.length) this.grow(to - from)
    this.bytes.set(chunk.subarray(from, to), this.byteCount)
    this.byteCount += to - from
  }

  private grow(more: number): void {
    const next = new Uint8Array(Math.max(this.bytes.length * 2, this.byteCount + more))
    next.set(this.bytes.subarray(0, this.byteCount))
    this.bytes = next
  }

  // Raw characters end at an ASCII quote or backslash, so a run never splits a UTF-8 sequence.
  private flushBytes(): void {
    if (this.byteCount === 0) return
    this.parts.push(utf8.decode(this.bytes.subarray(0, this.byteCount)))
    this.byteCount = 0
  }
}
