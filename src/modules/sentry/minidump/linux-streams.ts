import type { ByteView, Location } from './byte-view'
import type { LinuxDistribution } from './minidump.types'
import { readText } from './text'

/** Bytes of a copied Linux file read at most (a many-core `/proc/cpuinfo` is long; its first lines suffice). */
const MAX_LINUX_FILE = 64 * 1024
/** Characters kept of one value. */
const MAX_VALUE = 256

/** `KEY=VALUE` or `key : value` lines as a map of the first value of each key, quotes removed. */
function keyValues(text: string, separator: '=' | ':'): Map<string, string> {
  const map = new Map<string, string>()
  for (const line of text.split('\n')) {
    const at = line.indexOf(separator)
    if (at <= 0) continue
    const key = line.slice(0, at).trim()
    const value = line.slice(at + 1).trim().replace(/^"(.*)"$/, '$1').slice(0, MAX_VALUE)
    if (key && value && !map.has(key)) map.set(key, value)
  }
  return map
}

/**
 * The distribution from MD_LINUX_LSB_RELEASE: Breakpad copies `/etc/lsb-release` (DISTRIB_*), newer
 * writers `/etc/os-release` (ID, VERSION_ID, …); either is read.
 */
export function readLsbRelease(v: ByteView, loc: Location): LinuxDistribution | null {
  const kv = keyValues(readText(v.slice(loc.rva, Math.min(loc.size, MAX_LINUX_FILE), 'lsb-release stream')), '=')
  const pick = (...keys: string[]) => keys.map((k) => kv.get(k)).find((x) => x !== undefined) ?? null
  const d = {
    id: pick('DISTRIB_ID', 'ID'),
    release: pick('DISTRIB_RELEASE', 'VERSION_ID'),
    codename: pick('DISTRIB_CODENAME', 'VERSION_CODENAME'),
    description: pick('DISTRIB_DESCRIPTION', 'PRETTY_NAME'),
  }
  return Object.values(d).some((x) => x !== null) ? d : null
}

/** The CPU's model name from MD_LINUX_CPU_INFO (`/proc/cpuinfo`): `model name` on x86, `Hardware` or `Processor` on older ARM kernels. */
export function readCpuModel(v: ByteView, loc: Location): string | null {
  const kv = keyValues(readText(v.slice(loc.rva, Math.min(loc.size, MAX_LINUX_FILE), 'cpuinfo stream')), ':')
  return kv.get('model name') ?? kv.get('Hardware') ?? kv.get('Processor') ?? null
}
