// Incremental base64 for uploads sent inside JSON: the characters arrive in pieces of any size (a
// request chunk may end in the middle of a group of four), and the whole string is never in memory.

const INVALID = -1
const SPACE = -2
const PAD = -3

/** Sextet value of each character code below 256: both alphabets, ASCII whitespace, `=` padding. */
const SEXTET = new Int8Array(256).fill(INVALID)
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach((c, i) => (SEXTET[c.charCodeAt(0)] = i))
SEXTET[0x2d] = 62 // -
SEXTET[0x5f] = 63 // _
for (const c of [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20]) SEXTET[c] = SPACE
SEXTET[0x3d] = PAD

const sextetOf = (code: number) => (code < 256 ? SEXTET[code]! : INVALID)

/** Pieces shorter than this skip the native decoder (its setup costs more than it saves). */
const NATIVE_MIN = 256

type Alphabet = 'base64' | 'base64url'
// Uint8Array.prototype.setFromBase64 (TC39 base64 proposal, in Bun): strict about the alphabet, skips ASCII whitespace.
type NativeTarget = Uint8Array & { setFromBase64(text: string, opts: { alphabet: Alphabet; lastChunkHandling: 'stop-before-partial' }): { read: number; written: number } }

/** Output room `decode` may need for `chars` more characters (with a partial group and a held prefix). */
export const decodedRoom = (chars: number) => Math.ceil(chars / 4) * 3 + 6

/**
 * Decodes base64 piece by piece. Valid input is the alphabet (`+/` or `-_`, even mixed) with ASCII
 * whitespace anywhere, then at most two `=` and trailing whitespace; a last group of two or three
 * characters gives one or two bytes (what Buffer.from(…, 'base64') decodes after the same check).
 */
export class Base64Decoder {
  /** Set for good at the first character that cannot belong to base64. */
  invalid = false
  private acc = 0
  private sextets = 0
  private pads = 0
  /** 0 while reading data, 1 inside the `=` run, 2 in whitespace after it. */
  private phase = 0
  private alphabet: Alphabet = 'base64'

  /** Decodes `text` into `out` from `at` (with room for `decodedRoom(text.length)`); returns the new end. */
  decode(text: string, out: Uint8Array, at: number): number {
    let i = 0
    let o = at
    // The native decoder takes whole groups only: finish one left open by the previous piece first.
    for (; this.sextets !== 0 && this.phase === 0 && !this.invalid && i < text.length; i++) o = this.run(text, i, i + 1, out, o)
    if (this.phase === 0 && !this.invalid && text.length - i >= NATIVE_MIN) {
      const pad = text.indexOf('=', i)
      const piece = i === 0 && pad < 0 ? text : text.slice(i, pad < 0 ? text.length : pad)
      const done = this.native(piece, out, o)
      i += done.read
      o += done.written
    }
    return this.run(text, i, text.length, out, o)
  }

  /** Writes the bytes of a last, short group; call once after the last piece. */
  finish(out: Uint8Array, at: number): number {
    if (this.invalid) return at
    if (this.sextets === 2) {
      out[at] = (this.acc >> 4) & 0xff
      return at + 1
    }
    if (this.sextets === 3) {
      out[at] = (this.acc >> 10) & 0xff
      out[at + 1] = (this.acc >> 2) & 0xff
      return at + 2
    }
    return at
  }

  // Whole groups of one alphabet, up to the last partial group; nothing when the piece is anything
  // else (mixed alphabets, a vertical tab, a character outside base64): the JS loop then decides.
  private native(piece: string, out: Uint8Array, at: number): { read: number; written: number } {
    const target = out.subarray(at) as NativeTarget
    for (const alphabet of [this.alphabet, this.alphabet === 'base64' ? 'base64url' : 'base64'] as const) {
      try {
        const done = target.setFromBase64(piece, { alphabet, lastChunkHandling: 'stop-before-partial' })
        this.alphabet = alphabet
        return done
      } catch {
        // Try the other alphabet, then leave it to the JS loop.
      }
    }
    return { read: 0, written: 0 }
  }

  /** The JS decoder over `text[from, to)`. */
  private run(text: string, from: number, to: number, out: Uint8Array, at: number): number {
    if (this.invalid) return at
    let acc = this.acc
    let sextets = this.sextets
    let o = at
    let i = from
    if (this.phase === 0) {
      for (; i < to; i++) {
        const v = sextetOf(text.charCodeAt(i))
        if (v >= 0) {
          acc = (acc << 6) | v
          if (++sextets === 4) {
            out[o] = acc >> 16
            out[o + 1] = (acc >> 8) & 0xff
            out[o + 2] = acc & 0xff
            o += 3
            acc = 0
            sextets = 0
          }
        } else if (v === PAD) {
          this.phase = 1
          this.pads = 1
          i++
          break
        } else if (v !== SPACE) {
          this.invalid = true
          break
        }
      }
    }
    this.acc = acc
    this.sextets = sextets
    for (; i < to && !this.invalid; i++) this.tail(sextetOf(text.charCodeAt(i)))
    return o
  }

  // After the first `=`: one more `=` right after it, then whitespace only.
  private tail(v: number): void {
    if (this.phase === 1 && v === PAD && this.pads < 2) this.pads++
    else if (v === SPACE) this.phase = 2
    else this.invalid = true
  }
}

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?(?:;[\w-]+=[^;,]*)*;base64,$/i
const DATA = 'data:'
/** Longest data-URL prefix looked at; anything longer is not a data URL we accept. */
const MAX_PREFIX = 1024

/**
 * A base64 upload value: bare base64, or a data URL (`data:image/png;base64,…`) whose media type
 * becomes `declaredType`. The characters after the prefix go to a `Base64Decoder`.
 */
export class Base64Payload {
  declaredType: string | null = null
  private readonly decoder = new Base64Decoder()
  /** The first characters, held until they show whether the value is a data URL; null once decided. */
  private head: string | null = ''

  get invalid(): boolean {
    return this.decoder.invalid
  }

  /** Decodes the next characters into `out` from `at` (room: `decodedRoom(text.length)`); returns the new end. */
  decode(text: string, out: Uint8Array, at: number): number {
    if (this.head === null) return this.decoder.decode(text, out, at)
    this.head += text
    const k = Math.min(this.head.length, DATA.length)
    if (this.head.slice(0, k).toLowerCase() !== DATA.slice(0, k)) return this.release(out, at)
    const comma = this.head.indexOf(',')
    if (comma < 0) {
      if (this.head.length > MAX_PREFIX) this.decided(false)
      return at
    }
    const m = DATA_URL.exec(this.head.slice(0, comma + 1))
    const rest = this.head.slice(comma + 1)
    this.declaredType = m?.[1]?.toLowerCase() ?? null
    this.decided(m !== null)
    return m ? this.decoder.decode(rest, out, at) : at
  }

  /** Ends the value: a short value still held is decoded, a partial group is written. */
  finish(out: Uint8Array, at: number): number {
    if (this.head !== null) at = this.release(out, at)
    return this.decoder.finish(out, at)
  }

  private decided(valid: boolean): void {
    this.head = null
    if (!valid) this.decoder.invalid = true
  }

  // Not a data URL: what was held is base64 data.
  private release(out: Uint8Array, at: number): number {
    const held = this.head!
    this.head = null
    return this.decoder.decode(held, out, at)
  }
}
