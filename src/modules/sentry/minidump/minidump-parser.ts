import { ByteView } from './byte-view'
import { checkLayout, readDirectory } from './directory'
import { readException } from './exception-stream'
import { hex } from './hex'
import { readCpuModel, readLsbRelease } from './linux-streams'
import { ARCHITECTURES, ARCHITECTURES_32_BIT, exceptionFamily, Stream, THREAD_SIZE } from './minidump.format'
import { MinidumpError } from './minidump.errors'
import type { MinidumpCrashSite, MinidumpSystemInfo, ParsedMinidump } from './minidump.types'
import { listEntries, moduleAt, readModuleList } from './module-list'
import { readSystemInfo, type SystemRaw } from './system-info'

const READ_STREAMS = [Stream.threadList, Stream.moduleList, Stream.exception, Stream.systemInfo, Stream.linuxCpuInfo, Stream.linuxLsbRelease]

/**
 * Reads what a crash report needs from a minidump (Microsoft's format, as Windows, Breakpad,
 * Crashpad and sentry-native write it): header, system info, exception, module list, and where
 * the crashing thread was. No stack walking, no symbols: the bytes are read where the directory
 * says, each read bounds-checked, every count capped. A file that is not a readable minidump
 * throws MinidumpError and nothing else.
 */
export function parseMinidump(bytes: Uint8Array): ParsedMinidump {
  try {
    return parse(new ByteView(bytes))
  } catch (err) {
    if (err instanceof MinidumpError) throw err
    // Every read is checked, so this is a parser bug; the caller still gets the one error type.
    throw new MinidumpError(`unreadable minidump (${err instanceof Error ? err.message : String(err)})`)
  }
}

function parse(v: ByteView): ParsedMinidump {
  const dir = readDirectory(v)
  checkLayout(dir, READ_STREAMS)
  const stream = (type: number) => {
    const loc = dir.streams.get(type)
    return loc && loc.size > 0 ? loc : undefined
  }

  let system: MinidumpSystemInfo | null = null
  let raw: SystemRaw | null = null
  const systemLoc = stream(Stream.systemInfo)
  if (systemLoc) {
    const read = readSystemInfo(v, systemLoc)
    const cpuLoc = stream(Stream.linuxCpuInfo)
    const lsbLoc = stream(Stream.linuxLsbRelease)
    system = { ...read.info, cpuModel: cpuLoc ? readCpuModel(v, cpuLoc) : null, distribution: lsbLoc ? readLsbRelease(v, lsbLoc) : null }
    raw = read.raw
  }
  const family = exceptionFamily(raw?.platformId ?? null)

  const moduleLoc = stream(Stream.moduleList)
  const { entries, truncated } = moduleLoc ? readModuleList(v, moduleLoc, family) : { entries: [], truncated: false }

  const threadLoc = stream(Stream.threadList)
  const threadCount = threadLoc ? listEntries(v, threadLoc, THREAD_SIZE, 'thread list').count : null

  const exceptionLoc = stream(Stream.exception)
  const read = exceptionLoc
    ? readException(v, exceptionLoc, {
        family,
        arch: raw?.arch ?? null,
        archName: raw ? (ARCHITECTURES[raw.arch] ?? null) : null,
        is32Bit: raw !== null && ARCHITECTURES_32_BIT.has(raw.arch),
      })
    : null

  let crashSite: MinidumpCrashSite | null = null
  if (read?.codeAddress != null) {
    const at = read.codeAddress
    const entry = moduleAt(entries, at)
    crashSite = { address: hex(at), module: entry?.module.name ?? null, offset: entry ? hex(at - entry.base) : null }
  }

  return {
    header: dir.header,
    system,
    exception: read?.exception ?? null,
    crashSite,
    modules: entries.map((e) => e.module),
    modulesTruncated: truncated,
    threadCount,
  }
}
