import type { StackFrame } from '../../ingest/stack'

/** Frames kept from one call stack (the innermost ones); a stack overflow prints thousands. */
export const MAX_FRAMES = 256
/** Longer lines are cut before parsing, which bounds the work per line whatever a client sends. */
const MAX_LINE = 2048

const ADDRESS = /^(?:\[Callstack\]\s*)?(0x[0-9a-fA-F]{1,16})\s+/
/** Unreal's Mac form: `AActor::BeginPlay() Address = 0x10bc5fc29 (filename not found) [in YetAnotherMac]`. */
const MAC_ADDRESS = ' Address = '
const HEX = /^0x[0-9a-fA-F]{1,16}/
const FILE_LINE = /^(.*):(\d{1,9})$/
const UNKNOWN = /^Unknown(Function)?(\(.*\))?$/
/** Operating-system and C runtime modules: never the game's code, so never the frame a crash is grouped by. */
const SYSTEM_MODULE = /^(kernel32|kernelbase|ntdll|ucrtbase|msvcrt|msvcp\d+|vcruntime\d+(_\d+)?|user32|win32u|libc|libpthread|libsystem_\w+|libdyld|foundation|corefoundation)(\.(dll|dylib|so(\.\d+)*))?$/i
const HEX_TOKEN = /^0x[0-9a-fA-F]{1,16}$/
const OFFSET_TOKEN = /^[0-9a-fA-F]{1,16}$/

/**
 * The frames of a call stack as Unreal prints it in the crash context (`CallStack`), innermost first
 * as printed. Accepted line forms (each optionally led by an address, as in logs):
 * - `Game!AMyActor::Tick() [D:\Src\MyActor.cpp:42]`, `KERNELBASE!UnknownFunction []`, a bare module `ntdll` (Windows, Linux);
 * - `0x00007ffb… Game.exe!UnknownFunction []`;
 * - `AActor::BeginPlay() Address = 0x10bc5fc29 (filename not found) [in Game]` (Mac).
 * `UnknownFunction` leaves `function` unset, an empty `()` is dropped from names, and frames in
 * operating-system modules are marked `inApp: false` (others are left unknown).
 */
export function parseUnrealCallStack(text: string): StackFrame[] {
  const frames: StackFrame[] = []
  for (let start = 0; start < text.length && frames.length < MAX_FRAMES; ) {
    const newline = text.indexOf('\n', start)
    const end = newline === -1 ? text.length : newline
    const line = text.slice(start, Math.min(end, start + MAX_LINE)).trim()
    if (line) frames.push(parseLine(line))
    start = end + 1
  }
  return frames
}

/**
 * Frames of a portable call stack (`PCallStack`, and each thread's `CallStack` in UE5:
 * `Game 0x0000000025ca0000 + 703394 …`), module and absolute address only; Unreal's placeholder
 * entries (base 0xffffffff) are skipped.
 */
export function parsePortableCallStack(text: string): StackFrame[] {
  // Token by token (an entry is `[module] 0xBASE + OFFSET`, padded with any whitespace): linear, no backtracking.
  const tokens = text.slice(0, MAX_FRAMES * MAX_LINE).split(/\s+/)
  const frames: StackFrame[] = []
  let free = 0
  for (let i = 0; i + 2 < tokens.length && frames.length < MAX_FRAMES; i++) {
    const [base, plus, offset] = [tokens[i]!, tokens[i + 1], tokens[i + 2]!]
    if (!HEX_TOKEN.test(base) || plus !== '+' || !OFFSET_TOKEN.test(offset)) continue
    const module = i > free ? tokens[i - 1] : undefined
    free = i + 3
    i += 2
    if (/^0x0*ffffffff$/i.test(base)) continue
    frames.push(withModule({ address: hex(BigInt(base) + BigInt(`0x${offset}`)) }, module))
  }
  return frames
}

function parseLine(line: string): StackFrame {
  const leading = ADDRESS.exec(line)
  const rest = leading ? line.slice(leading[0].length) : line.replace(/^\[Callstack\]\s*/, '')
  const mac = rest.indexOf(MAC_ADDRESS)
  const macAddress = mac === -1 ? null : HEX.exec(rest.slice(mac + MAC_ADDRESS.length))
  if (macAddress) return parseMacLine(rest.slice(0, mac), macAddress[0], rest.slice(mac + MAC_ADDRESS.length + macAddress[0].length))
  let body = rest
  let location: string | undefined
  const open = body.lastIndexOf(' [')
  if (body.endsWith(']') && open !== -1) {
    location = body.slice(open + 2, -1)
    body = body.slice(0, open).trim()
  }
  const frame: StackFrame = { ...located(location), ...(leading ? { address: hex(BigInt(leading[1]!)) } : {}) }
  const bang = body.indexOf('!')
  if (bang > 0 && !/\s/.test(body.slice(0, bang))) return withModule({ ...named(body.slice(bang + 1)), ...frame }, body.slice(0, bang))
  if (!/\s/.test(body)) return withModule(frame, body)
  return { ...named(body), ...frame }
}

/** The rest of a Mac line after its address: ` (File.cpp:12) [in Module]`, each part optional. */
function parseMacLine(fn: string, address: string, tail: string): StackFrame {
  let rest = tail.trim()
  let module: string | undefined
  const inModule = rest.lastIndexOf('[in ')
  if (rest.endsWith(']') && inModule !== -1) {
    module = rest.slice(inModule + 4, -1)
    rest = rest.slice(0, inModule).trim()
  }
  const location = rest.startsWith('(') && rest.endsWith(')') ? rest.slice(1, -1) : undefined
  return withModule({ ...named(fn), address: hex(BigInt(address)), ...located(location === 'filename not found' ? undefined : location) }, module)
}

/** `function` unless Unreal could not name it; a trailing empty `()` is dropped. */
function named(text: string): Pick<StackFrame, 'function'> {
  const fn = text.trim()
  if (!fn || UNKNOWN.test(fn)) return {}
  return { function: fn.endsWith('()') ? fn.slice(0, -2) : fn }
}

/** `file` and `line` from `path:line` (a Windows drive letter's colon stays in the path). */
function located(location: string | undefined): Pick<StackFrame, 'file' | 'line'> {
  const text = location?.trim()
  if (!text) return {}
  const match = FILE_LINE.exec(text)
  return match ? { file: match[1], line: Number(match[2]) } : { file: text }
}

function withModule(frame: StackFrame, module: string | undefined): StackFrame {
  const name = module?.trim()
  if (!name) return frame
  return SYSTEM_MODULE.test(name) ? { ...frame, module: name, inApp: false } : { ...frame, module: name }
}

const hex = (value: bigint) => `0x${value.toString(16)}`
