import type { ByteView, Location } from './byte-view'
import { instructionPointer } from './cpu-context'
import { nameException } from './exception-names'
import { hex } from './hex'
import { EXCEPTION_MAX_PARAMETERS, EXCEPTION_STREAM_SIZE, type ExceptionFamily } from './minidump.format'
import { MinidumpError } from './minidump.errors'
import type { MinidumpException } from './minidump.types'

export interface ExceptionContext {
  family: ExceptionFamily
  /** processor_architecture, null without a system info stream. */
  arch: number | null
  archName: string | null
  is32Bit: boolean
}

const ACCESS_VIOLATION = 0xc0000005
const IN_PAGE_ERROR = 0xc0000006

/**
 * Reads MINIDUMP_EXCEPTION_STREAM: the crashing thread, the exception named by its platform's
 * scheme, the faulting address and the instruction pointer of the thread context it points at.
 */
export function readException(v: ByteView, loc: Location, ctx: ExceptionContext): { exception: MinidumpException; codeAddress: bigint | null } {
  if (loc.size < EXCEPTION_STREAM_SIZE) throw new MinidumpError(`the exception stream is ${loc.size} bytes, shorter than the ${EXCEPTION_STREAM_SIZE} it needs`)
  const at = loc.rva
  const code = v.u32(at + 8, 'exception')
  const flags = v.u32(at + 12, 'exception')
  const count = Math.min(v.u32(at + 32, 'exception'), EXCEPTION_MAX_PARAMETERS)
  const parameters = Array.from({ length: count }, (_, i) => v.u64(at + 40 + i * 8, 'exception'))
  const named = nameException({ code, flags, parameters }, ctx.family, ctx.archName)

  // Windows puts the data address of an access violation in its second parameter; the record's
  // own address is then the faulting instruction's.
  const faultsOnData = ctx.family === 'windows' && (code === ACCESS_VIOLATION || code === IN_PAGE_ERROR) && count >= 2
  const mask = ctx.is32Bit ? 0xffffffffn : 0xffffffffffffffffn
  const recordAddress = v.u64(at + 24, 'exception') & mask
  const address = faultsOnData ? parameters[1]! & mask : recordAddress

  const contextLoc = v.location(at + 160, 'exception thread context')
  const pc = contextLoc.size ? instructionPointer(v, contextLoc, ctx.arch) : null
  const ip = pc === null ? null : pc & mask
  return {
    exception: { threadId: v.u32(at, 'exception'), code, flags, ...named, address: hex(address), instructionPointer: ip === null ? null : hex(ip) },
    // Without a context, Windows' exception address is still where the code faulted; elsewhere it is the data address.
    codeAddress: ip ?? (ctx.family === 'windows' ? recordAddress : null),
  }
}
