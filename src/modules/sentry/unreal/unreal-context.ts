import type { StackFrame } from '../../ingest/stack'
import { parsePortableCallStack, parseUnrealCallStack } from './unreal-callstack'
import { UnrealCrashError } from './unreal-errors'
import { findElement, parseXml, type XmlElement } from './unreal-xml'

/** The fields of `CrashContext.runtime-xml` Glitchbox files a crash with; each is absent when Unreal left it out or empty. */
export interface UnrealCrashContext {
  /** `UE4CC-Windows-379993BB…_0000`: the crash's id on the player's machine. */
  crashGuid?: string
  /** Unreal's kind: `Crash`, `Assert`, `Ensure`, `Stall`, `GPUCrash`, `Hang`, `OutOfMemory`, `AbnormalShutdown`. */
  crashType?: string
  isAssert?: boolean
  isEnsure?: boolean
  isStall?: boolean
  /** The game died: every kind but an ensure or a stall, which Unreal reports while the game runs on. */
  isCrash: boolean
  /** As Unreal printed it: `Unhandled Exception: EXCEPTION_ACCESS_VIOLATION reading address 0x…`, `Assertion failed: …`. */
  errorMessage?: string
  /** The exception or signal named by the error message (`EXCEPTION_ACCESS_VIOLATION`, `SIGSEGV`, `SEGV_MAPERR`). */
  exceptionType?: string
  /** The crashing thread's frames, innermost first (see contextFrames). */
  frames: StackFrame[]
  /** `CallStack` as Unreal printed it. */
  callStack?: string
  gameName?: string
  executableName?: string
  /** `++UE4+Release-4.20-CL-4369336`: the build, Glitchbox's game version. */
  buildVersion?: string
  engineVersion?: string
  buildConfiguration?: string
  engineMode?: string
  /** `WindowsNoEditor`, `MacNoEditor`… */
  platformName?: string
  /** `Windows`, `Mac`, `Linux`… */
  platformNameIni?: string
  /** `Win64 [Windows 10  64b]` */
  platformFullName?: string
  /** `Misc.OSVersionMajor` and `Misc.OSVersionMinor`, joined. */
  osVersion?: string
  userName?: string
  epicAccountId?: string
  loginId?: string
  machineId?: string
  /** What the player typed into the crash reporter's window. */
  userDescription?: string
  cpuBrand?: string
  cpuVendor?: string
  gpuBrand?: string
  cpuCores?: number
  ramBytes?: number
  /** `TimeOfCrash` (.NET ticks, UTC) as an ISO date. */
  crashedAt?: string
  secondsSinceStart?: number
  crashReportClientVersion?: string
  /** `<EngineData>` entries (RHI.*, DeviceProfile.Name…), as text. */
  engineData: Record<string, string>
  /** `<GameData>` entries the game added (sentry-unreal puts its event JSON under `__sentry`). */
  gameData: Record<string, string>
}

/** Bigger contexts are refused unread; Unreal's are a few KB, tens with every thread's stack. */
export const MAX_CONTEXT_BYTES = 4 * 1024 * 1024
const MAX_DATA_ENTRIES = 200
/** .NET ticks (100 ns since 0001-01-01) at the Unix epoch. */
const UNIX_EPOCH_TICKS = 621_355_968_000_000_000n
const EXCEPTION_PATTERNS: [RegExp, (match: RegExpExecArray) => string][] = [
  [/^Unhandled Exception:\s*([A-Za-z_]\w*|0x[0-9a-fA-F]+)/, (m) => m[1]!],
  [/^(SIG[A-Z]+|SEGV_[A-Z]+|BUS_[A-Z]+|ILL_[A-Z]+|FPE_[A-Z]+)\b/, (m) => m[1]!],
  [/^Access violation - code c0000005\b/i, () => 'EXCEPTION_ACCESS_VIOLATION'],
]

/** Reads Unreal's crash context XML (UTF-8, or UTF-16 with a byte-order mark); malformed or oversized XML is an UnrealCrashError. */
export function readCrashContext(bytes: Uint8Array): UnrealCrashContext {
  if (bytes.length > MAX_CONTEXT_BYTES) throw new UnrealCrashError('bad_context', `the crash context is ${bytes.length} bytes (at most ${MAX_CONTEXT_BYTES})`)
  const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe
  const root = parseXml(new TextDecoder(utf16 ? 'utf-16le' : 'utf-8').decode(bytes))
  const props = fieldsOf(findElement(root, 'RuntimeProperties'))
  const text = (name: string) => props.get(name)
  const flag = (name: string) => boolean(text(name))
  const [isAssert, isEnsure, isStall] = [flag('IsAssert'), flag('IsEnsure'), flag('IsStall')]
  const crashType = text('CrashType')
  const errorMessage = text('ErrorMessage')
  return {
    crashGuid: text('CrashGUID'),
    crashType,
    isAssert,
    isEnsure,
    isStall,
    isCrash: crashType ? !/^(ensure|stall)$/i.test(crashType) : !isEnsure && !isStall,
    errorMessage,
    exceptionType: errorMessage ? exceptionTypeOf(errorMessage) : undefined,
    frames: contextFrames(root, props),
    callStack: text('CallStack'),
    gameName: text('GameName'),
    executableName: text('ExecutableName'),
    buildVersion: text('BuildVersion'),
    engineVersion: text('EngineVersion'),
    buildConfiguration: text('BuildConfiguration'),
    engineMode: text('EngineMode'),
    platformName: text('PlatformName'),
    platformNameIni: text('PlatformNameIni'),
    platformFullName: text('PlatformFullName'),
    osVersion: [text('Misc.OSVersionMajor'), text('Misc.OSVersionMinor')].filter(Boolean).join(' ') || undefined,
    userName: text('UserName'),
    epicAccountId: text('EpicAccountId'),
    loginId: text('LoginId'),
    machineId: text('MachineId'),
    userDescription: text('UserDescription'),
    cpuBrand: text('Misc.CPUBrand'),
    cpuVendor: text('Misc.CPUVendor'),
    gpuBrand: text('Misc.PrimaryGPUBrand'),
    cpuCores: integer(text('Misc.NumberOfCores')),
    ramBytes: integer(text('MemoryStats.TotalPhysical')),
    crashedAt: ticksToIso(text('TimeOfCrash')),
    secondsSinceStart: integer(text('SecondsSinceStart')),
    crashReportClientVersion: text('CrashReportClientVersion'),
    engineData: dataBag(findElement(root, 'EngineData')),
    gameData: dataBag(findElement(root, 'GameData')),
  }
}

/** The exception or signal an error message names, if it names one. */
export function exceptionTypeOf(errorMessage: string): string | undefined {
  const message = errorMessage.trim()
  for (const [pattern, pick] of EXCEPTION_PATTERNS) {
    const match = pattern.exec(message)
    if (match) return pick(match)
  }
  return undefined
}

/**
 * The crashing thread's frames: the printed `CallStack` (symbolicated on the player's machine), else
 * the UE5 `<Threads>` entry marked `IsCrashed`, else the portable `PCallStack`.
 */
function contextFrames(root: XmlElement, props: Map<string, string>): StackFrame[] {
  const printed = parseUnrealCallStack(props.get('CallStack') ?? '')
  if (printed.length > 0) return printed
  const threads = findElement(root, 'Threads')?.children ?? []
  const crashed = threads.map(fieldsOf).find((thread) => boolean(thread.get('IsCrashed')))?.get('CallStack')
  const fromThread = crashed ? parsePortableCallStack(crashed) : []
  if (fromThread.length > 0) return fromThread
  return crashed ? parseUnrealCallStack(crashed) : parsePortableCallStack(props.get('PCallStack') ?? '')
}

/** Child name → trimmed text, first non-empty occurrence of each name. */
function fieldsOf(element: XmlElement | undefined): Map<string, string> {
  const fields = new Map<string, string>()
  for (const child of element?.children ?? []) {
    const value = child.text.trim()
    if (value && !fields.has(child.name)) fields.set(child.name, value)
  }
  return fields
}

function dataBag(element: XmlElement | undefined): Record<string, string> {
  return Object.fromEntries([...fieldsOf(element)].slice(0, MAX_DATA_ENTRIES))
}

function boolean(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined
  if (/^(true|1)$/i.test(value)) return true
  if (/^(false|0)$/i.test(value)) return false
  return undefined
}

function integer(value: string | undefined): number | undefined {
  if (!value || !/^\d{1,16}$/.test(value)) return undefined
  const number = Number(value)
  return Number.isSafeInteger(number) ? number : undefined
}

function ticksToIso(value: string | undefined): string | undefined {
  if (!value || !/^\d{1,20}$/.test(value)) return undefined
  const ms = (BigInt(value) - UNIX_EPOCH_TICKS) / 10_000n
  // Years 1970 to 9999: outside that a date is not a crash time (and toISOString would throw past ±275760).
  return ms >= 0n && ms < 253_402_300_800_000n ? new Date(Number(ms)).toISOString() : undefined
}
