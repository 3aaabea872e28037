import type { ByteView, Location } from './byte-view'
import { hex } from './hex'
import { ARCHITECTURES, PLATFORMS, SYSTEM_INFO_SIZE } from './minidump.format'
import { MinidumpError } from './minidump.errors'
import type { MinidumpSystemInfo } from './minidump.types'
import { readMinidumpString } from './text'

/** The raw values other streams are read by (which CONTEXT layout, which exception names). */
export interface SystemRaw {
  arch: number
  platformId: number
}

/** Linux and Android, whose writers store `uname -srvmo` as the CSD string. */
const UNAME_PLATFORMS = new Set([0x8201, 0x8203])

/** The x86 vendor id (`GenuineIntel`), when the 12 bytes hold printable text. */
function cpuVendor(v: ByteView, at: number): string | null {
  const bytes = v.slice(at, 12, 'system info')
  if (!bytes.every((b) => b >= 0x20 && b < 0x7f)) return null
  return String.fromCharCode(...bytes).trim() || null
}

/**
 * The OS version and build. Breakpad on Linux and Android leaves the numbers at 0.0.0 and stores
 * `uname -srvmo` (`Linux 4.9.60-linuxkit-aufs #1 SMP … x86_64 GNU/Linux`) as the CSD string: the
 * kernel release is its second word and the build what lies between it and the machine name.
 * (Crashpad fills in the numbers; its CSD string is then the build, whole.)
 */
function osVersion(platformId: number, numbers: string, csd: string | null): { osVersion: string; osBuild: string | null } {
  if (!UNAME_PLATFORMS.has(platformId) || numbers !== '0.0.0' || !csd) return { osVersion: numbers, osBuild: csd }
  const words = csd.split(' ')
  const release = words[1]
  if (!release) return { osVersion: numbers, osBuild: csd }
  const rest = words.slice(2)
  if (rest.at(-1) === 'GNU/Linux' || rest.at(-1) === 'Linux/GNU') rest.pop()
  rest.pop() // the machine (x86_64, aarch64)
  return { osVersion: release, osBuild: rest.join(' ') || null }
}

/** Reads MINIDUMP_SYSTEM_INFO: CPU, operating system and its version. */
export function readSystemInfo(v: ByteView, loc: Location): { info: Omit<MinidumpSystemInfo, 'cpuModel' | 'distribution'>; raw: SystemRaw } {
  if (loc.size < SYSTEM_INFO_SIZE) throw new MinidumpError(`the system info stream is ${loc.size} bytes, shorter than the ${SYSTEM_INFO_SIZE} it needs`)
  const at = loc.rva
  const arch = v.u16(at, 'system info')
  const level = v.u16(at + 2, 'system info')
  const revision = v.u16(at + 4, 'system info')
  const platformId = v.u32(at + 20, 'system info')
  const csdRva = v.u32(at + 24, 'system info')
  const csd = csdRva ? readMinidumpString(v, csdRva, 'system info CSD version').trim() || null : null
  const numbers = [8, 12, 16].map((o) => v.u32(at + o, 'system info')).join('.')

  const name = ARCHITECTURES[arch]
  const x86Family = name === 'x86' || name === 'amd64'
  // Windows writes the vendor id only for 32-bit x86 (an amd64 dump holds feature bits there);
  // Breakpad on Linux and macOS writes it for both. minidump_stackwalk prints it for x86 alone.
  const vendor = x86Family ? cpuVendor(v, at + 32) : null
  const family = x86Family ? `family ${level} model ${revision >> 8} stepping ${revision & 0xff}` : null
  return {
    info: {
      arch: name ?? `unknown (${hex(arch)})`,
      cpuCount: v.u8(at + 6, 'system info'),
      cpuVendor: vendor,
      cpuInfo: family && (vendor && name === 'x86' ? `${vendor} ${family}` : family),
      os: PLATFORMS[platformId] ?? `unknown (${hex(platformId)})`,
      ...osVersion(platformId, numbers, csd),
    },
    raw: { arch, platformId },
  }
}
