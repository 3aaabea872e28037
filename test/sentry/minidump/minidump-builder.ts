/**
 * Writes small minidumps for tests, field by field after the documented layouts
 * (google_breakpad/common/minidump_format.h and minidump_cpu_*.h), independently of the parser:
 * what a test expects is what it wrote here, not what the parser printed.
 */

export interface ModuleSpec {
  base: bigint
  size: number
  path: string
  timestamp?: number
  /** Raw CodeView record bytes. */
  cv?: Uint8Array
  /** file_version_hi, file_version_lo of a VS_FIXEDFILEINFO. */
  version?: [number, number]
}

export interface DumpSpec {
  arch?: number
  platform?: number
  cpuCount?: number
  osVersion?: [number, number, number]
  csd?: string
  /** 12 ASCII characters of cpuid's vendor. */
  vendor?: string
  exception?: { threadId?: number; code: number; flags?: number; address?: bigint; parameters?: bigint[]; context?: Uint8Array }
  modules?: ModuleSpec[]
  /** Write 4 zero bytes between the module count and the modules, as some 64-bit writers do. */
  padModuleList?: boolean
  threads?: number
  /** Extra streams as [type, bytes]. */
  streams?: Array<[number, Uint8Array]>
  /** Bytes of zeros appended at the end (to make large files). */
  padding?: number
}

class Writer {
  private buf = new Uint8Array(4096)
  private view = new DataView(this.buf.buffer)
  length = 0

  private grow(to: number) {
    if (to <= this.buf.length) return
    const next = new Uint8Array(Math.max(to, this.buf.length * 2))
    next.set(this.buf)
    this.buf = next
    this.view = new DataView(next.buffer)
  }

  /** Reserves `size` zero bytes, 4-aligned, and returns their offset. */
  alloc(size: number): number {
    const at = (this.length + 3) & ~3
    this.grow(at + size)
    this.length = at + size
    return at
  }

  bytes(b: Uint8Array): number {
    const at = this.alloc(b.length)
    this.buf.set(b, at)
    return at
  }

  u8 = (at: number, x: number) => this.view.setUint8(at, x)
  u16 = (at: number, x: number) => this.view.setUint16(at, x, true)
  u32 = (at: number, x: number) => this.view.setUint32(at, x >>> 0, true)
  u64 = (at: number, x: bigint) => this.view.setBigUint64(at, x, true)

  /** A MINIDUMP_STRING (byte length, UTF-16LE, NUL). */
  string(s: string): number {
    const at = this.alloc(4 + s.length * 2 + 2)
    this.u32(at, s.length * 2)
    for (let i = 0; i < s.length; i++) this.u16(at + 4 + i * 2, s.charCodeAt(i))
    return at
  }

  done(): Uint8Array {
    return this.buf.slice(0, this.length)
  }
}

/** An x86 CONTEXT (716 bytes) with context_flags and eip. */
export function x86Context(eip: number, flags = 0x1003f): Uint8Array {
  const b = new Uint8Array(716)
  const v = new DataView(b.buffer)
  v.setUint32(0, flags, true)
  v.setUint32(184, eip, true)
  return b
}

/** An amd64 CONTEXT (1232 bytes): context_flags after the six home registers, rip after the integer registers. */
export function amd64Context(rip: bigint, flags = 0x10000b): Uint8Array {
  const b = new Uint8Array(1232)
  const v = new DataView(b.buffer)
  v.setUint32(48, flags, true)
  v.setBigUint64(248, rip, true)
  return b
}

/** An arm CONTEXT (368 bytes): context_flags, r0..r15 (pc is r15), cpsr, VFP state. */
export function armContext(pc: number, flags = 0x40000002): Uint8Array {
  const b = new Uint8Array(4 + 16 * 4 + 4 + 8 + 32 * 8 + 8 * 4)
  const v = new DataView(b.buffer)
  v.setUint32(0, flags, true)
  for (let r = 0; r < 15; r++) v.setUint32(4 + r * 4, 0x1000 + r, true)
  v.setUint32(4 + 15 * 4, pc, true)
  v.setUint32(68, 0x60000010, true) // cpsr
  return b
}

/** The Windows and Crashpad arm64 CONTEXT (912 bytes): 32-bit flags, cpsr, x0..x28, fp, lr, sp, pc, then NEON and debug registers. */
export function arm64Context(pc: bigint, flags = 0x00400003): Uint8Array {
  const b = new Uint8Array(912)
  const v = new DataView(b.buffer)
  v.setUint32(0, flags, true)
  v.setUint32(4, 0x60000000, true) // cpsr
  for (let r = 0; r < 29; r++) v.setBigUint64(8 + r * 8, BigInt(0x2000 + r), true)
  v.setBigUint64(8 + 29 * 8, 0x7ffd0000n, true) // fp
  v.setBigUint64(8 + 30 * 8, 0x5555_0000_1234n, true) // lr
  v.setBigUint64(8 + 31 * 8, 0x7ffc0000n, true) // sp
  v.setBigUint64(8 + 32 * 8, pc, true)
  return b
}

/** Breakpad's older arm64 CONTEXT (796 bytes, 4-byte packed): 64-bit flags, x0..x28, fp, lr, sp, pc, then cpsr and the FP state. */
export function arm64OldContext(pc: bigint, flags = 0x80000002n): Uint8Array {
  const b = new Uint8Array(8 + 33 * 8 + 4 + 8 + 32 * 16)
  const v = new DataView(b.buffer)
  v.setBigUint64(0, flags, true)
  for (let r = 0; r < 29; r++) v.setBigUint64(8 + r * 8, BigInt(0x3000 + r), true)
  v.setBigUint64(8 + 30 * 8, 0x5555_0000_1234n, true) // lr
  v.setBigUint64(8 + 32 * 8, pc, true)
  v.setUint32(8 + 33 * 8, 0x60000000, true) // cpsr after the registers in this layout
  return b
}

/** An RSDS CodeView record: GUID (as 16 bytes in file order), age, PDB path. */
export function rsds(guid: Uint8Array, age: number, pdb: string): Uint8Array {
  const name = new TextEncoder().encode(pdb)
  const b = new Uint8Array(24 + name.length + 1)
  const v = new DataView(b.buffer)
  v.setUint32(0, 0x53445352, true)
  b.set(guid, 4)
  v.setUint32(20, age, true)
  b.set(name, 24)
  return b
}

/** Breakpad's ELF CodeView record: `BpEL` and the build id. */
export function bpel(buildId: Uint8Array): Uint8Array {
  const b = new Uint8Array(4 + buildId.length)
  new DataView(b.buffer).setUint32(0, 0x4270454c, true)
  b.set(buildId, 4)
  return b
}

/** A minidump with a system info stream and whatever else the spec asks for. */
export function buildMinidump(spec: DumpSpec = {}): Uint8Array {
  const w = new Writer()
  const streams: Array<[number, number, number]> = [] // type, size, rva
  const header = w.alloc(32)
  const extra = spec.streams ?? []
  const count = 1 + (spec.exception ? 1 : 0) + (spec.modules ? 1 : 0) + (spec.threads !== undefined ? 1 : 0) + extra.length
  const directory = w.alloc(count * 12)

  const sys = w.alloc(56)
  w.u16(sys, spec.arch ?? 9)
  w.u16(sys + 2, 6)
  w.u16(sys + 4, 0x4601)
  w.u8(sys + 6, spec.cpuCount ?? 4)
  const [major, minor, build] = spec.osVersion ?? [10, 0, 19045]
  w.u32(sys + 8, major)
  w.u32(sys + 12, minor)
  w.u32(sys + 16, build)
  w.u32(sys + 20, spec.platform ?? 2)
  if (spec.vendor) for (let i = 0; i < 12; i++) w.u8(sys + 32 + i, spec.vendor.charCodeAt(i))
  w.u32(sys + 24, w.string(spec.csd ?? ''))
  streams.push([7, 56, sys])

  if (spec.exception) {
    const e = spec.exception
    const at = w.alloc(168)
    w.u32(at, e.threadId ?? 1)
    w.u32(at + 8, e.code)
    w.u32(at + 12, e.flags ?? 0)
    w.u64(at + 24, e.address ?? 0n)
    const params = e.parameters ?? []
    w.u32(at + 32, params.length)
    params.slice(0, 15).forEach((p, i) => w.u64(at + 40 + i * 8, p))
    if (e.context) {
      const ctx = w.bytes(e.context)
      w.u32(at + 160, e.context.length)
      w.u32(at + 164, ctx)
    }
    streams.push([6, 168, at])
  }

  if (spec.modules) {
    const head = spec.padModuleList ? 8 : 4
    const list = w.alloc(head + spec.modules.length * 108)
    w.u32(list, spec.modules.length)
    spec.modules.forEach((m, i) => {
      const at = list + head + i * 108
      w.u64(at, m.base)
      w.u32(at + 8, m.size)
      w.u32(at + 16, m.timestamp ?? 0)
      w.u32(at + 20, w.string(m.path))
      if (m.version) {
        w.u32(at + 24, 0xfeef04bd)
        w.u32(at + 28, 0x10000)
        w.u32(at + 32, m.version[0])
        w.u32(at + 36, m.version[1])
      }
      if (m.cv) {
        const cv = w.bytes(m.cv)
        w.u32(at + 76, m.cv.length)
        w.u32(at + 80, cv)
      }
    })
    streams.push([4, head + spec.modules.length * 108, list])
  }

  if (spec.threads !== undefined) {
    const list = w.alloc(4 + spec.threads * 48)
    w.u32(list, spec.threads)
    for (let i = 0; i < spec.threads; i++) w.u32(list + 4 + i * 48, 100 + i)
    streams.push([3, 4 + spec.threads * 48, list])
  }

  for (const [type, bytes] of extra) streams.push([type, bytes.length, w.bytes(bytes)])
  if (spec.padding) w.alloc(spec.padding)

  w.u32(header, 0x504d444d)
  w.u32(header + 4, 0xa793)
  w.u32(header + 8, count)
  w.u32(header + 12, directory)
  w.u32(header + 20, 1_700_000_000)
  streams.forEach(([type, size, rva], i) => {
    w.u32(directory + i * 12, type)
    w.u32(directory + i * 12 + 4, size)
    w.u32(directory + i * 12 + 8, rva)
  })
  return w.done()
}
