import { ByteView } from './byte-view'
import { readRegisters } from './cpu-registers'
import { readDirectory } from './directory'
import { type MemoryRegion, readMemoryList } from './memory-list'
import { Arch, EXCEPTION_STREAM_SIZE, exceptionFamily, Stream } from './minidump.format'
import { MinidumpError } from './minidump.errors'
import { type ModuleEntry, readModuleList } from './module-list'
import { readSystemInfo } from './system-info'
import { readThreadList } from './thread-list'

/** A thread ready to walk: its registers (null when its context is missing or of an unwalked CPU) and stack. */
export interface StackThread {
  id: number
  crashed: boolean
  registers: Map<string, bigint> | null
  stack: MemoryRegion
}

/** What a stack walker reads from a minidump: the CPU, the modules with their ranges, the threads and all kept memory. */
export interface StackInput {
  cpu: 'x86' | 'amd64' | null
  modules: ModuleEntry[]
  threads: StackThread[]
  /** The memory list's regions and the threads' stacks, sorted by start address. */
  memory: MemoryRegion[]
}

/**
 * Reads the inputs of stack walking, which parseMinidump leaves out: thread contexts, stack memory
 * and module ranges. The crashing thread takes the exception's context (the thread list holds the
 * crash handler's). Throws MinidumpError when the dump is unreadable.
 */
export function readStackInput(bytes: Uint8Array): StackInput {
  const v = new ByteView(bytes)
  const dir = readDirectory(v)
  const stream = (type: number) => {
    const loc = dir.streams.get(type)
    return loc && loc.size > 0 ? loc : undefined
  }
  const systemLoc = stream(Stream.systemInfo)
  const raw = systemLoc ? readSystemInfo(v, systemLoc).raw : null
  const arch = raw?.arch ?? null
  const cpu = arch === Arch.amd64 ? 'amd64' : arch === Arch.x86 || arch === Arch.x86OnWin64 ? 'x86' : null
  const moduleLoc = stream(Stream.moduleList)
  const modules = moduleLoc ? readModuleList(v, moduleLoc, exceptionFamily(raw?.platformId ?? null)).entries : []

  const exceptionLoc = stream(Stream.exception)
  if (exceptionLoc && exceptionLoc.size < EXCEPTION_STREAM_SIZE) throw new MinidumpError(`the exception stream is ${exceptionLoc.size} bytes, shorter than the ${EXCEPTION_STREAM_SIZE} it needs`)
  const crashedId = exceptionLoc ? v.u32(exceptionLoc.rva, 'exception') : null
  const crashContext = exceptionLoc ? v.location(exceptionLoc.rva + 160, 'exception thread context') : null

  const threadLoc = stream(Stream.threadList)
  const threads = (threadLoc ? readThreadList(v, threadLoc) : []).map((t): StackThread => {
    const crashed = t.id === crashedId
    const context = crashed && crashContext?.size ? crashContext : t.context
    return { id: t.id, crashed, registers: context.size ? readRegisters(v, context, arch) : null, stack: t.stack }
  })
  const memoryLoc = stream(Stream.memoryList)
  const memory = [...(memoryLoc ? readMemoryList(v, memoryLoc) : []), ...threads.map((t) => t.stack)]
  memory.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))
  return { cpu, modules, threads, memory }
}
