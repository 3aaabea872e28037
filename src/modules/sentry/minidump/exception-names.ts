import { appleException } from './apple-exceptions'
import type { ExceptionRecord, NamedException } from './exception-record'
import { hex8 } from './hex'
import type { ExceptionFamily } from './minidump.format'
import { posixSignal } from './posix-signals'
import { windowsException } from './windows-exceptions'

/**
 * Names an exception by the naming scheme of the platform that wrote it: Windows exception codes,
 * Mach exceptions on macOS and iOS, signals on Linux, Android and other Unixes.
 */
export function nameException(r: ExceptionRecord, family: ExceptionFamily, arch: string | null): NamedException {
  if (family === 'windows') return windowsException(r)
  if (family === 'apple') return appleException(r, arch)
  if (family === 'posix') return posixSignal(r)
  return { name: `unknown ${hex8(r.code)}`, reason: `unknown ${hex8(r.code)} / ${hex8(r.flags)}` }
}
