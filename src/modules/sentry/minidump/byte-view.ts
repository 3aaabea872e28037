import { hex } from './hex'
import { MinidumpError } from './minidump.errors'

/** A location descriptor of the format: `size` bytes at file offset `rva`. */
export interface Location {
  size: number
  rva: number
}

/**
 * Little-endian reads over the uploaded bytes, each one checked against the end of the file, so a
 * hostile offset becomes a MinidumpError naming what was being read and never a RangeError. Reads
 * go through one DataView over the caller's buffer: nothing is copied.
 */
export class ByteView {
  private readonly view: DataView
  readonly length: number

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    this.length = bytes.byteLength
  }

  /** Throws unless `size` bytes at `offset` lie inside the file. */
  check(offset: number, size: number, what: string): void {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(size) || offset < 0 || size < 0 || offset + size > this.length) {
      throw new MinidumpError(`${what}: ${size} bytes at offset ${hex(offset)} lie outside the ${this.length}-byte file`)
    }
  }

  u8(offset: number, what: string): number {
    this.check(offset, 1, what)
    return this.view.getUint8(offset)
  }

  u16(offset: number, what: string): number {
    this.check(offset, 2, what)
    return this.view.getUint16(offset, true)
  }

  u32(offset: number, what: string): number {
    this.check(offset, 4, what)
    return this.view.getUint32(offset, true)
  }

  u64(offset: number, what: string): bigint {
    this.check(offset, 8, what)
    return this.view.getBigUint64(offset, true)
  }

  /** A location descriptor (`data_size`, `rva`) stored at `offset`, checked to lie inside the file. */
  location(offset: number, what: string): Location {
    const loc = { size: this.u32(offset, what), rva: this.u32(offset + 4, what) }
    this.check(loc.rva, loc.size, what)
    return loc
  }

  /** A view of `size` bytes at `offset` (no copy). */
  slice(offset: number, size: number, what: string): Uint8Array {
    this.check(offset, size, what)
    return this.bytes.subarray(offset, offset + size)
  }
}
