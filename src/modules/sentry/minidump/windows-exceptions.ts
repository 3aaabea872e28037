import type { ExceptionRecord, NamedException } from './exception-record'
import { hex8 } from './hex'

/** Windows exception codes (winnt.h EXCEPTION_* and the NTSTATUS values crashes carry), as crash tools name them. */
const CODES: Readonly<Record<number, string>> = {
  0x80000001: 'EXCEPTION_GUARD_PAGE',
  0x80000002: 'EXCEPTION_DATATYPE_MISALIGNMENT',
  0x80000003: 'EXCEPTION_BREAKPOINT',
  0x80000004: 'EXCEPTION_SINGLE_STEP',
  0xc0000005: 'EXCEPTION_ACCESS_VIOLATION',
  0xc0000006: 'EXCEPTION_IN_PAGE_ERROR',
  0xc0000008: 'EXCEPTION_INVALID_HANDLE',
  0xc000000d: 'STATUS_INVALID_PARAMETER',
  0xc0000017: 'STATUS_NO_MEMORY',
  0xc000001d: 'EXCEPTION_ILLEGAL_INSTRUCTION',
  0xc0000025: 'EXCEPTION_NONCONTINUABLE_EXCEPTION',
  0xc0000026: 'EXCEPTION_INVALID_DISPOSITION',
  0xc000008c: 'EXCEPTION_BOUNDS_EXCEEDED',
  0xc000008d: 'EXCEPTION_FLT_DENORMAL_OPERAND',
  0xc000008e: 'EXCEPTION_FLT_DIVIDE_BY_ZERO',
  0xc000008f: 'EXCEPTION_FLT_INEXACT_RESULT',
  0xc0000090: 'EXCEPTION_FLT_INVALID_OPERATION',
  0xc0000091: 'EXCEPTION_FLT_OVERFLOW',
  0xc0000092: 'EXCEPTION_FLT_STACK_CHECK',
  0xc0000093: 'EXCEPTION_FLT_UNDERFLOW',
  0xc0000094: 'EXCEPTION_INT_DIVIDE_BY_ZERO',
  0xc0000095: 'EXCEPTION_INT_OVERFLOW',
  0xc0000096: 'EXCEPTION_PRIV_INSTRUCTION',
  0xc00000fd: 'EXCEPTION_STACK_OVERFLOW',
  0xc0000135: 'STATUS_DLL_NOT_FOUND',
  0xc0000139: 'STATUS_ENTRYPOINT_NOT_FOUND',
  0xc0000142: 'STATUS_DLL_INIT_FAILED',
  0xc0000194: 'EXCEPTION_POSSIBLE_DEADLOCK',
  0xc0000374: 'STATUS_HEAP_CORRUPTION',
  0xc0000409: 'EXCEPTION_STACK_BUFFER_OVERRUN',
  0xc0000417: 'STATUS_INVALID_CRUNTIME_PARAMETER',
  0xc0000420: 'STATUS_ASSERTION_FAILURE',
  0xc0000602: 'STATUS_FAIL_FAST_EXCEPTION',
  0x40000015: 'STATUS_FATAL_APP_EXIT',
  0x40010005: 'DBG_CONTROL_C',
  0xe0000008: 'OUT_OF_MEMORY', // Breakpad's code for an out-of-memory dump
  0xe06d7363: 'UNHANDLED_CPP_EXCEPTION', // MSVC's throw ("msc")
  0xe0434352: 'MANAGED_EXCEPTION', // the .NET runtime's ("CCR")
  0x0517a7ed: 'SIMULATED', // Breakpad's dump without a crash
}

/** exception_information[0] of an access violation or in-page error: what the faulting instruction tried. */
const ACCESS: Readonly<Record<number, string>> = { 0: 'READ', 1: 'WRITE', 8: 'EXEC' }

/** __fastfail codes (winnt.h FAST_FAIL_*), the parameter of EXCEPTION_STACK_BUFFER_OVERRUN. */
const FAST_FAIL: readonly string[] = [
  'FAST_FAIL_LEGACY_GS_VIOLATION', 'FAST_FAIL_VTGUARD_CHECK_FAILURE', 'FAST_FAIL_STACK_COOKIE_CHECK_FAILURE',
  'FAST_FAIL_CORRUPT_LIST_ENTRY', 'FAST_FAIL_INCORRECT_STACK', 'FAST_FAIL_INVALID_ARG', 'FAST_FAIL_GS_COOKIE_INIT',
  'FAST_FAIL_FATAL_APP_EXIT', 'FAST_FAIL_RANGE_CHECK_FAILURE', 'FAST_FAIL_UNSAFE_REGISTRY_ACCESS',
  'FAST_FAIL_GUARD_ICALL_CHECK_FAILURE', 'FAST_FAIL_GUARD_WRITE_CHECK_FAILURE', 'FAST_FAIL_INVALID_FIBER_SWITCH',
  'FAST_FAIL_INVALID_SET_OF_CONTEXT', 'FAST_FAIL_INVALID_REFERENCE_COUNT',
]
const FAST_FAIL_MORE: Readonly<Record<number, string>> = {
  18: 'FAST_FAIL_INVALID_JUMP_BUFFER',
  19: 'FAST_FAIL_MRDATA_MODIFIED',
  21: 'FAST_FAIL_INVALID_EXCEPTION_CHAIN',
  22: 'FAST_FAIL_CRYPTO_LIBRARY',
  23: 'FAST_FAIL_INVALID_CALL_IN_DLL_CALLOUT',
  28: 'FAST_FAIL_INVALID_BUFFER_ACCESS',
  37: 'FAST_FAIL_GUARD_JUMPTABLE',
  38: 'FAST_FAIL_INVALID_LONGJUMP_TARGET',
  44: 'FAST_FAIL_GUARD_SS_FAILURE',
  50: 'FAST_FAIL_HEAP_METADATA_CORRUPTION',
}

/** Names a Windows exception; access violations and in-page errors by their access type, fast-fail by its code. */
export function windowsException(r: ExceptionRecord): NamedException {
  const base = CODES[r.code] ?? `unknown ${hex8(r.code)}`
  const param = (i: number) => (i < r.parameters.length ? Number(r.parameters[i]! & 0xffffffffn) : null)
  const access = param(0) === null ? undefined : ACCESS[param(0)!]
  if (r.code === 0xc0000005 && access) return { name: `${base}_${access}`, reason: `${base}_${access}` }
  if (r.code === 0xc0000006 && access && param(2) !== null) {
    const status = CODES[param(2)!] ?? hex8(param(2)!)
    return { name: `${base}_${access}`, reason: `${base}_${access} / ${status}` }
  }
  if (r.code === 0xc0000409 && param(0) !== null) {
    const code = param(0)!
    return { name: base, reason: `${base} / ${FAST_FAIL[code] ?? FAST_FAIL_MORE[code] ?? hex8(code)}` }
  }
  return { name: base, reason: base }
}
